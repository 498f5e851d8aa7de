package dev.wharf.client.consumer.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageExt;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ProcessQueueTest {

    private static MessageExt msg(long offset, int bodySize) {
        MessageExt m = new MessageExt();
        m.setQueueOffset(offset);
        m.setBody(new byte[bodySize]);
        return m;
    }

    private static List<MessageExt> range(long from, long to) {
        List<MessageExt> out = new ArrayList<>();
        for (long o = from; o < to; o++) {
            out.add(msg(o, 10));
        }
        return out;
    }

    @Test
    void offsetIsTheLowestStillHeldOrTheMaxPlusOneWhenEmpty() {
        ProcessQueue pq = new ProcessQueue();
        List<MessageExt> batch = range(100, 110);
        pq.putMessages(batch);
        assertThat(pq.messageCount()).isEqualTo(10);
        assertThat(pq.messageSize()).isEqualTo(100);
        assertThat(pq.maxSpan()).isEqualTo(9);
        // a slow first message holds the offset back while later ones finish
        assertThat(pq.removeMessages(batch.subList(1, 10))).isEqualTo(100);
        assertThat(pq.commitableOffset()).isEqualTo(100);
        assertThat(pq.removeMessages(batch.subList(0, 1))).isEqualTo(110);
        assertThat(pq.messageCount()).isZero();
        assertThat(pq.messageSize()).isZero();
        assertThat(pq.removeMessages(batch)).as("nothing held").isEqualTo(-1);
    }

    @Test
    void agreesWithATreeMapOracleUnderRandomPutsAndRemoves() {
        ProcessQueue pq = new ProcessQueue();
        TreeMap<Long, MessageExt> oracle = new TreeMap<>();
        Random random = new Random(42);
        long next = 0;
        long max = -1;
        for (int round = 0; round < 2_000; round++) {
            if (random.nextInt(3) > 0) {
                int n = 1 + random.nextInt(32);
                List<MessageExt> pulled = range(next, next + n);
                next += n;
                max = next - 1;
                pq.putMessages(pulled);
                pulled.forEach(m -> oracle.put(m.getQueueOffset(), m));
            } else if (!oracle.isEmpty()) {
                List<MessageExt> held = new ArrayList<>(oracle.values());
                List<MessageExt> done = new ArrayList<>();
                for (MessageExt m : held) {
                    if (random.nextInt(4) == 0) {
                        done.add(m);
                    }
                }
                long offset = pq.removeMessages(done);
                done.forEach(m -> oracle.remove(m.getQueueOffset()));
                long expected = oracle.isEmpty() ? max + 1 : oracle.firstKey();
                assertThat(offset).isEqualTo(expected);
            }
            assertThat(pq.messageCount()).isEqualTo(oracle.size());
            assertThat(pq.maxSpan()).isEqualTo(oracle.isEmpty() ? 0 : oracle.lastKey() - oracle.firstKey());
        }
    }

    @Test
    void duplicatePullsAreNotCountedTwice() {
        ProcessQueue pq = new ProcessQueue();
        pq.putMessages(range(0, 5));
        pq.putMessages(range(3, 8));
        assertThat(pq.messageCount()).isEqualTo(8);
        assertThat(pq.messageSize()).isEqualTo(80);
    }

    @Test
    void orderlyTakeCommitAndConsumeAgain() {
        ProcessQueue pq = new ProcessQueue();
        assertThat(pq.putMessages(range(0, 5))).as("first put starts a consume request").isTrue();
        assertThat(pq.putMessages(range(5, 6))).as("one is already running").isFalse();
        List<MessageExt> first = pq.takeMessages(2);
        assertThat(first).extracting(MessageExt::getQueueOffset).containsExactly(0L, 1L);
        assertThat(pq.commitableOffset()).isEqualTo(0);
        pq.makeMessagesToConsumeAgain(first);
        assertThat(pq.takeMessages(2)).extracting(MessageExt::getQueueOffset).containsExactly(0L, 1L);
        assertThat(pq.commit()).isEqualTo(2);
        assertThat(pq.messageCount()).isEqualTo(4);
        assertThat(pq.takeMessages(10)).hasSize(4);
        assertThat(pq.commit()).isEqualTo(6);
        assertThat(pq.takeMessages(10)).as("empty ends the request").isEmpty();
        assertThat(pq.putMessages(range(6, 7))).as("the next put starts a new request").isTrue();
    }
}
