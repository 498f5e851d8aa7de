package dev.wharf.broker.schedule;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bit per offset of the timer queue: set once the message there is settled (delivered, or nothing to
 * deliver). The timer delivers in due-time order, not queue order, so "everything below the low-water mark is
 * done" does not describe what it delivered above that mark; this bitmap does, at 1 bit per message.
 *
 * <p>On disk: segment files of {@value #BITS_PER_SEGMENT} bits (128 KiB) named by their first offset (20
 * digits), big-endian 64-bit words, written in place (only the changed words) and forced by {@link #flush()}.
 * Bits only ever go from 0 to 1, so a segment written partly before a crash is still a correct, older state;
 * what it misses the scheduler finds again in the commit log. Segments wholly below the low-water mark are
 * deleted. Not thread-safe: owned by the schedule thread.
 */
final class SettledBitmap {

    private static final Logger log = LoggerFactory.getLogger(SettledBitmap.class);

    static final int SEGMENT_SHIFT = 20;
    static final long BITS_PER_SEGMENT = 1L << SEGMENT_SHIFT;
    private static final int WORDS_PER_SEGMENT = (int) (BITS_PER_SEGMENT / 64);

    private final Path dir;
    private final Map<Long, Segment> segments = new HashMap<>();
    /** The segment last looked up: scans touch one segment a million times in a row. */
    private long cachedNumber = -1;
    private Segment cached;

    SettledBitmap(Path dir) {
        this.dir = dir;
    }

    /** Reads the segments from the one holding {@code from} on; older files are deleted. */
    void load(long from) throws IOException {
        segments.clear();
        cached = null;
        cachedNumber = -1;
        if (!Files.isDirectory(dir)) {
            return;
        }
        long first = segmentOf(from);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                long start = parseName(file.getFileName().toString());
                if (start < 0) {
                    continue;
                }
                long number = start >>> SEGMENT_SHIFT;
                if (number < first) {
                    Files.deleteIfExists(file);
                    continue;
                }
                segments.put(number, read(file));
            }
        }
    }

    private static Segment read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        Segment segment = new Segment();
        int words = Math.min(WORDS_PER_SEGMENT, bytes.length / 8);
        ByteBuffer.wrap(bytes, 0, words * 8).asLongBuffer().get(segment.words, 0, words);
        return segment;
    }

    boolean isSet(long offset) {
        Segment segment = segment(segmentOf(offset), false);
        return segment != null && (segment.words[wordOf(offset)] & bitOf(offset)) != 0;
    }

    void set(long offset) {
        Segment segment = segment(segmentOf(offset), true);
        int word = wordOf(offset);
        long bit = bitOf(offset);
        if ((segment.words[word] & bit) == 0) {
            segment.words[word] |= bit;
            segment.markDirty(word);
        }
    }

    private Segment segment(long number, boolean create) {
        if (number == cachedNumber && cached != null) {
            return cached;
        }
        Segment segment = create ? segments.computeIfAbsent(number, n -> new Segment()) : segments.get(number);
        if (segment != null) {
            cachedNumber = number;
            cached = segment;
        }
        return segment;
    }

    /** Sets every bit of [from, to). */
    void setRange(long from, long to) {
        for (long offset = from; offset < to; offset++) {
            set(offset);
        }
    }

    /** Clears every bit at or above {@code from} (offsets that no longer exist in the queue). */
    void clearFrom(long from) {
        for (Map.Entry<Long, Segment> entry : segments.entrySet()) {
            long segmentStart = entry.getKey() << SEGMENT_SHIFT;
            Segment segment = entry.getValue();
            for (int word = 0; word < WORDS_PER_SEGMENT; word++) {
                long wordStart = segmentStart + 64L * word;
                if (wordStart + 64 <= from || segment.words[word] == 0) {
                    continue;
                }
                long keep = wordStart >= from ? 0L : (1L << (from - wordStart)) - 1;
                long cleared = segment.words[word] & keep;
                if (cleared != segment.words[word]) {
                    segment.words[word] = cleared;
                    segment.markDirty(word);
                }
            }
        }
    }

    /** The first offset in [from, to) whose bit is clear, or {@code to}. */
    long firstClear(long from, long to) {
        long offset = from;
        while (offset < to) {
            Segment segment = segment(segmentOf(offset), false);
            if (segment == null) {
                return offset;
            }
            int word = wordOf(offset);
            long bits = ~segment.words[word] & (-1L << (offset & 63));
            if (bits != 0) {
                return Math.min(to, (offset & ~63L) + Long.numberOfTrailingZeros(bits));
            }
            offset = (offset & ~63L) + 64;
        }
        return to;
    }

    /** Forgets and deletes the segments that end at or below {@code offset}. */
    void dropBelow(long offset) {
        long keepFrom = segmentOf(offset);
        Iterator<Map.Entry<Long, Segment>> it = segments.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Segment> entry = it.next();
            if (entry.getKey() < keepFrom) {
                it.remove();
                if (entry.getKey() == cachedNumber) {
                    cached = null;
                    cachedNumber = -1;
                }
                try {
                    Files.deleteIfExists(file(entry.getKey()));
                } catch (IOException e) {
                    log.warn("Could not delete {}: {}", file(entry.getKey()), e.toString());
                }
            }
        }
    }

    /** Writes the changed words of every segment and forces them to disk. */
    void flush() throws IOException {
        boolean created = false;
        for (Map.Entry<Long, Segment> entry : segments.entrySet()) {
            Segment segment = entry.getValue();
            if (segment.dirtyFrom > segment.dirtyTo) {
                continue;
            }
            if (!created) {
                Files.createDirectories(dir);
                created = true;
            }
            int words = segment.dirtyTo - segment.dirtyFrom + 1;
            ByteBuffer buffer = ByteBuffer.allocate(words * 8);
            buffer.asLongBuffer().put(segment.words, segment.dirtyFrom, words);
            try (FileChannel channel = FileChannel.open(file(entry.getKey()), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                long position = 8L * segment.dirtyFrom;
                while (buffer.hasRemaining()) {
                    position += channel.write(buffer, position);
                }
                channel.force(false);
            }
            segment.clean();
        }
    }

    /** Segments held in memory (128 KiB each). */
    int segmentCount() {
        return segments.size();
    }

    private Path file(long segmentNumber) {
        return dir.resolve(String.format("%020d", segmentNumber << SEGMENT_SHIFT));
    }

    private static long parseName(String name) {
        if (name.length() != 20) {
            return -1;
        }
        try {
            long start = Long.parseLong(name);
            return start % BITS_PER_SEGMENT == 0 ? start : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static long segmentOf(long offset) {
        return offset >>> SEGMENT_SHIFT;
    }

    private static int wordOf(long offset) {
        return (int) ((offset & (BITS_PER_SEGMENT - 1)) >>> 6);
    }

    private static long bitOf(long offset) {
        return 1L << (offset & 63);
    }

    /** 2^20 bits and the range of words changed since the last flush. */
    private static final class Segment {
        final long[] words = new long[WORDS_PER_SEGMENT];
        int dirtyFrom = Integer.MAX_VALUE;
        int dirtyTo = -1;

        void markDirty(int word) {
            dirtyFrom = Math.min(dirtyFrom, word);
            dirtyTo = Math.max(dirtyTo, word);
        }

        void clean() {
            dirtyFrom = Integer.MAX_VALUE;
            dirtyTo = -1;
        }
    }
}
