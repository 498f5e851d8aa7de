package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.HostAddress;
import dev.wharf.store.DefaultMessageStore;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The epoch history shrinks with the commit log: when the store's clean-up deletes the oldest commit-log files, the
 * replication service drops the terms that ended before the log's new start (durably), keeping the one that covers
 * it and the last one, so the history carried by every HA handshake stays bounded by what the log still holds.
 */
@Timeout(60)
class EpochPruningTest {

    @TempDir
    Path dir;

    @Test
    void termsThatEndedBeforeTheOldestRemainingFileAreDroppedWhenFilesAreDeleted() throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(dir.toString());
        config.setMappedFileSizeCommitLog(64 * 1024);
        config.setMappedFileSizeConsumeQueue(100 * 20);
        config.setMaxMessageSize(16 * 1024);
        config.setCleanResourceInterval(3_600_000);
        config.setDeleteCommitLogFilesInterval(0);
        config.setFileReservedTime(0); // every file but the one being written has expired
        DefaultMessageStore store = new DefaultMessageStore(config);
        store.start();
        HaConfig ha = new HaConfig();
        ha.setBrokerRole(BrokerRole.ASYNC_MASTER);
        HaService service = new HaService(ha, "broker-a", 0, store, config.getMaxMessageSize());
        try {
            EpochFile epochs = service.epochs();
            // one term per 100 puts of about 350 bytes: terms 1..6 over about 6 commit-log files
            for (int term = 1; term <= 6; term++) {
                epochs.append(term, store.getMaxPhyOffset());
                for (int i = 0; i < 100; i++) {
                    assertThat(store.putMessage(message("t" + term + "-" + i)).isOk()).isTrue();
                }
            }
            epochs.append(7, store.getMaxPhyOffset()); // a term that has written nothing yet
            assertThat(epochs.entries()).hasSize(7);

            store.cleanExpiredFilesNow();

            long min = store.getMinPhyOffset();
            assertThat(min).as("old files deleted").isPositive();
            assertThat(epochs.entries()).as("the term covering the log's start comes first")
                    .first().satisfies(e -> assertThat(e.startOffset()).isLessThanOrEqualTo(min));
            assertThat(epochs.entries().get(1).startOffset()).isGreaterThan(min);
            assertThat(epochs.entries()).hasSizeLessThan(7).last().isEqualTo(new EpochEntry(7, store.getMaxPhyOffset()));
            assertThat(EpochFile.open(dir).entries()).as("durable").isEqualTo(epochs.entries());
        } finally {
            service.shutdown();
            store.shutdown();
        }
    }

    @Test
    void pruningKeepsTheLastTermAndTheOneCoveringTheStart() throws Exception {
        EpochFile epochs = EpochFile.open(dir);
        epochs.append(1, 0);
        epochs.append(2, 100);
        epochs.append(3, 100); // wrote nothing
        epochs.append(4, 300);
        assertThat(epochs.pruneBefore(0)).isZero();
        assertThat(epochs.pruneBefore(99)).isZero();
        assertThat(epochs.pruneBefore(100)).as("terms 1 and 2 ended at 100").isEqualTo(2);
        assertThat(epochs.entries()).containsExactly(new EpochEntry(3, 100), new EpochEntry(4, 300));
        assertThat(epochs.pruneBefore(10_000)).isEqualTo(1);
        assertThat(epochs.entries()).containsExactly(new EpochEntry(4, 300));
        assertThat(EpochFile.open(dir).entries()).containsExactly(new EpochEntry(4, 300));
    }

    private static MessageToStore message(String body) {
        MessageToStore msg = new MessageToStore();
        msg.setTopic("Epochs");
        msg.setQueueId(0);
        msg.setBody((body + "-" + "x".repeat(300)).getBytes(StandardCharsets.UTF_8));
        msg.setBornTimestamp(System.currentTimeMillis());
        msg.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
        return msg;
    }
}
