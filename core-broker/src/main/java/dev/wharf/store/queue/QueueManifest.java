package dev.wharf.store.queue;

import static dev.wharf.store.queue.QueueManifestLayout.*;

import dev.wharf.common.util.AtomicFiles;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue manifest (layout in {@link QueueManifestLayout}): the consume queues a store had and their ends,
 * so a start can check the queues against what should be there without opening any of them, and a clean
 * start can give every queue its ends without reading its files.
 *
 * @param dispatchedOffset every commit-log record below it was in the queues when the ends were taken
 * @param indexedOffset    offset of the last message in the index files then, -1 when none
 * @param fileSize         the consume-queue file size the queues were written with
 * @param clean            written at a clean stop: the ends are exact, not only lower bounds
 * @param entries          the queues
 */
public record QueueManifest(long dispatchedOffset, long indexedOffset, int fileSize, boolean clean,
        List<Entry> entries) {

    public static final String FILE_NAME = "queues.manifest";

    private static final Logger log = LoggerFactory.getLogger(QueueManifest.class);

    /** One queue's ends (see {@link QueueManifestLayout} for the fields). */
    public record Entry(String topic, int queueId, long minOffset, long firstFile, long end, long lastPhyEnd) {
    }

    /**
     * Reads the manifest at {@code path}.
     *
     * @return null when there is none, or it is damaged (logged): the caller then checks the queues the slow way
     */
    public static QueueManifest read(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            log.warn("Could not read the queue manifest {}: {}; checking every consume queue on disk", path, e.toString());
            return null;
        }
        try {
            return parse(bytes);
        } catch (RuntimeException e) {
            log.warn("The queue manifest {} is damaged ({}); checking every consume queue on disk", path, e.getMessage());
            return null;
        }
    }

    private static QueueManifest parse(byte[] bytes) {
        if (bytes.length < HEADER_SIZE + CRC_SIZE) {
            throw new IllegalStateException(bytes.length + " bytes, shorter than a header");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - CRC_SIZE);
        if ((int) crc.getValue() != b.getInt(bytes.length - CRC_SIZE)) {
            throw new IllegalStateException("CRC mismatch");
        }
        if (b.getInt(MAGIC_OFFSET) != MAGIC || b.getInt(VERSION_OFFSET) != VERSION) {
            throw new IllegalStateException("unknown magic or version");
        }
        int count = b.getInt(ENTRY_COUNT_OFFSET);
        List<Entry> entries = new ArrayList<>(count);
        b.position(HEADER_SIZE).limit(bytes.length - CRC_SIZE);
        String topic = "";
        byte[] topicBytes = new byte[0];
        for (int i = 0; i < count; i++) {
            int length = Short.toUnsignedInt(b.getShort());
            // queues of a topic are written together: one String per topic, not per queue
            if (!Arrays.equals(topicBytes, 0, topicBytes.length, bytes, b.position(), b.position() + length)) {
                topicBytes = Arrays.copyOfRange(bytes, b.position(), b.position() + length);
                topic = new String(topicBytes, StandardCharsets.UTF_8);
            }
            b.position(b.position() + length);
            entries.add(new Entry(topic, b.getInt(), b.getLong(), b.getLong(), b.getLong(), b.getLong()));
        }
        return new QueueManifest(b.getLong(DISPATCHED_OFFSET_OFFSET), b.getLong(INDEXED_OFFSET_OFFSET),
                b.getInt(FILE_SIZE_OFFSET), b.getInt(CLEAN_OFFSET) == 1, entries);
    }

    /** Writes the manifest to {@code path} atomically (temporary file, force, rename, force the directory). */
    public void write(Path path) throws IOException {
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        CRC32 crc = new CRC32();
        try (OutputStream file = Files.newOutputStream(tmp, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
                CheckedOutputStream checked = new CheckedOutputStream(new BufferedOutputStream(file, 1 << 16), crc);
                DataOutputStream out = new DataOutputStream(checked)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeLong(dispatchedOffset);
            out.writeLong(indexedOffset);
            out.writeInt(fileSize);
            out.writeInt(entries.size());
            out.writeInt(clean ? 1 : 0);
            out.writeInt(0);
            for (Entry e : entries) {
                byte[] topic = e.topic().getBytes(StandardCharsets.UTF_8);
                out.writeShort(topic.length);
                out.write(topic);
                out.writeInt(e.queueId());
                out.writeLong(e.minOffset());
                out.writeLong(e.firstFile());
                out.writeLong(e.end());
                out.writeLong(e.lastPhyEnd());
            }
            out.flush();
            // the CRC covers what went through the checked stream; write it past the checksum
            new DataOutputStream(file).writeInt((int) crc.getValue());
        }
        AtomicFiles.force(tmp);
        AtomicFiles.replace(tmp, path);
        Path dir = path.toAbsolutePath().getParent();
        if (dir != null) {
            AtomicFiles.forceDirectory(dir);
        }
    }
}
