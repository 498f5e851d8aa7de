package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreIndexQueryTest {

    @TempDir
    Path dir;

    private DefaultMessageStore store;

    @BeforeEach
    void setUp() throws IOException {
        MessageStoreConfig config = smallConfig(dir);
        config.setMaxHashSlotNum(3); // nearly every key shares a slot: chains must tell them apart
        config.setMaxIndexNum(50);   // several index files
        store = new DefaultMessageStore(config);
        store.start();
    }

    @AfterEach
    void tearDown() {
        store.shutdown();
    }

    private static List<String> bodies(QueryMessageResult result) {
        List<String> out = new ArrayList<>();
        try {
            for (SelectMappedBufferResult b : result.buffers()) {
                MessageExt m = MessageDecoder.decode(b.byteBuffer().duplicate(), true, false);
                out.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
        } finally {
            result.release();
        }
        return out;
    }

    @Test
    void queryByKeyNewestFirstAcrossCollisionsAndFiles() {
        for (int i = 0; i < 120; i++) {
            MessageToStore m = message(i % 2 == 0 ? "Even" : "Odd", 0, "m" + i);
            m.putProperty(MessageProperties.KEYS, "k" + (i % 10) + " all");
            m.putProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, "UNIQ-" + i);
            assertThat(store.putMessage(m).isOk()).isTrue();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);

        assertThat(bodies(store.queryMessage("Even", "k4", 100, 0, Long.MAX_VALUE)))
                .containsExactly("m114", "m104", "m94", "m84", "m74", "m64", "m54", "m44", "m34", "m24", "m14", "m4");
        assertThat(bodies(store.queryMessage("Odd", "k4", 100, 0, Long.MAX_VALUE))).as("other topic").isEmpty();
        assertThat(bodies(store.queryMessage("Odd", "all", 3, 0, Long.MAX_VALUE))).containsExactly("m119", "m117", "m115");
        assertThat(bodies(store.queryMessage("Odd", "UNIQ-33", 10, 0, Long.MAX_VALUE))).containsExactly("m33");
        assertThat(bodies(store.queryMessage("Odd", "absent", 10, 0, Long.MAX_VALUE))).isEmpty();
        QueryMessageResult meta = store.queryMessage("Even", "k0", 1, 0, Long.MAX_VALUE);
        assertThat(meta.indexLastUpdatePhyoffset()).isPositive();
        assertThat(meta.indexLastUpdateTimestamp()).isPositive();
        meta.release();
    }

    @Test
    void queryByTimeWindow() {
        // index units keep whole seconds relative to the file's start, so the rounds are two seconds apart
        List<Long> times = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            if (round > 0) {
                long previous = times.get(round - 1);
                await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() >= previous + 2100);
            }
            MessageToStore m = message("Window", 0, "r" + round);
            m.putProperty(MessageProperties.KEYS, "same");
            times.add(store.putMessage(m).appendResult().storeTimestamp());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);
        long t1 = times.get(1);
        assertThat(bodies(store.queryMessage("Window", "same", 10, t1 - 1000, t1 + 500))).containsExactly("r1");
        assertThat(bodies(store.queryMessage("Window", "same", 10, t1 - 1000, Long.MAX_VALUE)))
                .containsExactly("r2", "r1");
        assertThat(bodies(store.queryMessage("Window", "same", 10, 0, times.get(0) + 500))).containsExactly("r0");
    }
}
