package dev.wharf.client.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageQueue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AllocateMessageQueueAveragelyTest {

    private final AllocateMessageQueueAveragely strategy = new AllocateMessageQueueAveragely();

    private static List<MessageQueue> queues(int n) {
        List<MessageQueue> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new MessageQueue("t", i < n / 2 ? "broker-a" : "broker-b", i));
        }
        out.sort(null);
        return out;
    }

    private static List<String> members(int m) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            out.add("10.0.0." + i + "@" + i);
        }
        out.sort(null);
        return out;
    }

    @Test
    void eightQueuesOverThreeMembersAreThreeThreeTwoContiguousBlocks() {
        List<MessageQueue> all = queues(8);
        List<String> cids = members(3);
        assertThat(strategy.allocate("g", cids.get(0), all, cids)).containsExactlyElementsOf(all.subList(0, 3));
        assertThat(strategy.allocate("g", cids.get(1), all, cids)).containsExactlyElementsOf(all.subList(3, 6));
        assertThat(strategy.allocate("g", cids.get(2), all, cids)).containsExactlyElementsOf(all.subList(6, 8));
    }

    @Test
    void everyQueueGoesToExactlyOneMemberForAllSizes() {
        for (int n = 1; n <= 20; n++) {
            for (int m = 1; m <= 12; m++) {
                List<MessageQueue> all = queues(n);
                List<String> cids = members(m);
                Set<MessageQueue> seen = new HashSet<>();
                int min = Integer.MAX_VALUE;
                int max = 0;
                for (String cid : cids) {
                    List<MessageQueue> mine = strategy.allocate("g", cid, all, cids);
                    for (MessageQueue mq : mine) {
                        assertThat(seen.add(mq)).as("queue %s given twice (n=%d, m=%d)", mq, n, m).isTrue();
                    }
                    min = Math.min(min, mine.size());
                    max = Math.max(max, mine.size());
                }
                assertThat(seen).as("n=%d, m=%d", n, m).containsExactlyInAnyOrderElementsOf(all);
                assertThat(max - min).as("balance for n=%d, m=%d", n, m).isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void aMemberNotInTheListGetsNothing() {
        assertThat(strategy.allocate("g", "stranger", queues(8), members(2))).isEmpty();
        assertThat(strategy.allocate("g", "a", List.of(), List.of("a"))).isEmpty();
    }
}
