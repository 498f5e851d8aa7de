package dev.wharf.client.consumer.offset;

import dev.wharf.client.ClientException;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.common.util.AtomicFiles;
import dev.wharf.protocol.body.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Offsets of a broadcasting consumer in a JSON file, {@code offsets.json} in its directory. Each write goes to a
 * temporary file that is forced to disk and then renamed over the old one, so a crash leaves either the old or
 * the new file, never a torn one; the previous version is kept as {@code offsets.json.bak} and read when the
 * main file is unreadable. Thread-safe.
 */
public final class LocalFileOffsetStore implements OffsetStore {

    private static final Logger log = LoggerFactory.getLogger(LocalFileOffsetStore.class);
    static final String FILE_NAME = "offsets.json";

    /** The file's shape. */
    record OffsetFile(List<Entry> offsets) {
    }

    record Entry(String topic, String brokerName, int queueId, long offset) {
    }

    private final Path file;
    private final Path backup;
    private final Path temp;
    private final OffsetTable offsets = new OffsetTable();
    private final Object writeLock = new Object();

    /** @param directory the consumer's own directory (created when missing) */
    public LocalFileOffsetStore(Path directory) {
        this.file = directory.resolve(FILE_NAME);
        this.backup = directory.resolve(FILE_NAME + ".bak");
        this.temp = directory.resolve(FILE_NAME + ".tmp");
    }

    public Path file() {
        return file;
    }

    @Override
    public void load() throws ClientException {
        Map<MessageQueue, Long> loaded = read(file);
        if (loaded == null) {
            loaded = read(backup);
            if (loaded != null) {
                log.warn("Offset file {} is unreadable; using its backup {}", file, backup);
            }
        }
        if (loaded == null && Files.exists(file)) {
            throw new ClientException("The offset file " + file + " and its backup are unreadable; fix or delete "
                    + "them (deleting restarts this broadcasting consumer from its consumeFromWhere position).");
        }
        offsets.replaceAll(loaded != null ? loaded : Map.of());
    }

    /** The file's offsets, null when it is missing or unreadable. */
    private static Map<MessageQueue, Long> read(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            log.warn("Cannot read offset file {}: {}", path, e.toString());
            return null;
        }
        try {
            OffsetFile content = Json.decode(bytes, OffsetFile.class);
            Map<MessageQueue, Long> out = new TreeMap<>();
            if (content.offsets() != null) {
                for (Entry e : content.offsets()) {
                    out.put(new MessageQueue(e.topic(), e.brokerName(), e.queueId()), e.offset());
                }
            }
            return out;
        } catch (IllegalArgumentException e) {
            log.warn("Offset file {} is not valid JSON offsets: {}", path, e.getMessage());
            return null;
        }
    }

    @Override
    public void updateOffset(MessageQueue mq, long offset, boolean increaseOnly) {
        offsets.update(mq, offset, increaseOnly);
    }

    @Override
    public long readOffset(MessageQueue mq, ReadOffsetType type) throws ClientException {
        if (type == ReadOffsetType.READ_FROM_STORE) {
            Map<MessageQueue, Long> stored = read(file);
            Long offset = stored == null ? null : stored.get(mq);
            if (offset == null) {
                return NO_OFFSET;
            }
            updateOffset(mq, offset, false);
            return offset;
        }
        return offsets.offsetOrNone(mq);
    }

    @Override
    public void persistAll(Set<MessageQueue> mqs) {
        try {
            write();
        } catch (IOException e) {
            log.warn("Cannot write offset file {}: {}", file, e.toString());
        }
    }

    @Override
    public void persist(MessageQueue mq) throws ClientException {
        try {
            write();
        } catch (IOException e) {
            throw new ClientException("Cannot write offset file " + file + ": " + e.getMessage()
                    + "; check the directory's permissions and free space (PushConsumer.offsetStoreDir).", e);
        }
    }

    private void write() throws IOException {
        List<Entry> entries = new ArrayList<>();
        offsets.snapshot().forEach((mq, offset) ->
                entries.add(new Entry(mq.topic(), mq.brokerName(), mq.queueId(), offset)));
        byte[] bytes = Json.encode(new OffsetFile(entries));
        synchronized (writeLock) {
            Files.createDirectories(file.getParent());
            AtomicFiles.writeAndForce(temp, bytes);
            if (Files.exists(file)) {
                Files.copy(file, backup, StandardCopyOption.REPLACE_EXISTING);
            }
            AtomicFiles.replace(temp, file);
        }
    }

    @Override
    public void removeOffset(MessageQueue mq) {
        offsets.remove(mq);
    }

    @Override
    public Set<MessageQueue> queues() {
        return offsets.queues();
    }
}
