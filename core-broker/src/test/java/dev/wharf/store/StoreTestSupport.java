package dev.wharf.store;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Helpers shared by the store tests: small-file configs, messages, reading results back. */
final class StoreTestSupport {

    private StoreTestSupport() {
    }

    /** A config with small files so tests cross file boundaries, and slow background flushes. */
    static MessageStoreConfig smallConfig(Path root) {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root.toString());
        config.setMappedFileSizeCommitLog(64 * 1024);
        config.setMappedFileSizeConsumeQueue(100 * 20);
        config.setMaxMessageSize(16 * 1024);
        config.setMaxHashSlotNum(64);
        config.setMaxIndexNum(2000);
        config.setFlushIntervalCommitLog(50);
        config.setFlushIntervalConsumeQueue(100);
        config.setCleanResourceInterval(3_600_000);
        config.setDeleteCommitLogFilesInterval(0);
        config.setStoreHost("10.1.2.3:10911");
        return config;
    }

    static MessageToStore message(String topic, int queueId, String body) {
        MessageToStore msg = new MessageToStore();
        msg.setTopic(topic);
        msg.setQueueId(queueId);
        msg.setBody(body.getBytes(StandardCharsets.UTF_8));
        msg.setBornTimestamp(System.currentTimeMillis());
        msg.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
        return msg;
    }

    /** Decodes the messages of a read and releases it. */
    static List<MessageExt> decode(GetMessageResult result) {
        List<MessageExt> out = new ArrayList<>();
        try {
            for (var buffer : result.buffers()) {
                out.add(MessageDecoder.decode(buffer.byteBuffer().duplicate(), true, false));
            }
        } finally {
            result.release();
        }
        return out;
    }

    /** Every message body of a queue from {@code from} to its end, read in batches. */
    static List<String> readAll(MessageStore store, String topic, int queueId, long from) {
        List<String> bodies = new ArrayList<>();
        long offset = from;
        while (offset < store.getMaxOffsetInQueue(topic, queueId)) {
            GetMessageResult r = store.getMessage(topic, queueId, offset, 32, 1 << 20, null);
            offset = r.nextBeginOffset();
            for (MessageExt m : decode(r)) {
                bodies.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
        }
        return bodies;
    }

    /** Copies a store folder as a crash would leave it on disk (taken while the store is still open). */
    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
