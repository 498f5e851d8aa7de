package dev.wharf.store.recovery;

import dev.wharf.store.commitlog.QuarantinedRanges;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code quarantine.jsonl} file in the store folder: an append-only list of the commit-log ranges that
 * could not be served, one JSON object per line ({@link QuarantineEntry#toJson}), written by recovery and by
 * reads that found a damaged record. Each range is reported once: the report keeps the known ranges in a
 * {@link QuarantinedRanges} (reloaded from the file at start, so they stay skipped after a restart) and
 * ignores a range it already covers. A line with {@code "cut":true} says the log was cut at its offset:
 * ranges at or past it are forgotten, since new records will be written there.
 *
 * <p>Thread-safe: {@link #record} and {@link #cut} are synchronized (rare: only when damage is found).
 */
public final class QuarantineReport implements AutoCloseable {

    public static final String FILE_NAME = "quarantine.jsonl";

    private static final Logger log = LoggerFactory.getLogger(QuarantineReport.class);
    private static final Pattern OFFSET = Pattern.compile("\"offset\":(\\d+)");
    private static final Pattern LENGTH = Pattern.compile("\"length\":(\\d+)");

    private final Path path;
    private final QuarantinedRanges ranges;
    private final LongAdder recorded = new LongAdder();
    private FileChannel channel;

    /** The report of the store under {@code rootDir}, keeping its ranges in {@code ranges}; {@link #load()} it. */
    public QuarantineReport(Path rootDir, QuarantinedRanges ranges) {
        this.path = rootDir.resolve(FILE_NAME);
        this.ranges = ranges;
    }

    /** Reads the ranges the file lists into the ranges (start-up, before recovery). */
    public synchronized void load() throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        for (String line : lines) {
            Matcher offset = OFFSET.matcher(line);
            Matcher length = LENGTH.matcher(line);
            if (!offset.find() || !length.find()) {
                continue; // a line torn by a crash, or edited by hand
            }
            long start = Long.parseLong(offset.group(1));
            long len = Long.parseLong(length.group(1));
            if (line.contains("\"cut\":true")) {
                ranges.removeFrom(start);
            } else if (len > 0 && !line.contains("\"endOfLog\":true")) {
                ranges.add(start, start + len);
            }
        }
        if (!ranges.isEmpty()) {
            log.warn("{} lists {} damaged commit-log range(s); they stay skipped", path, ranges.size());
        }
    }

    /**
     * Adds a damaged range: remembers it (readers and the dispatcher skip it from now on) and appends it to
     * the file. The caller writes the log line (readers rate-limit theirs).
     *
     * @return false when the range was already known (nothing written)
     */
    public synchronized boolean record(QuarantineEntry entry) {
        if (!entry.endOfLog() && !ranges.add(entry.offset(), entry.offset() + entry.length())) {
            return false;
        }
        recorded.increment();
        append(entry.toJson(System.currentTimeMillis()));
        return true;
    }

    /** The log was cut at {@code offset}: ranges from there on are forgotten (new records go there). */
    public synchronized void cut(long offset) {
        if (!ranges.anyAtOrAbove(offset)) {
            return;
        }
        ranges.removeFrom(offset);
        append("{\"time\":" + System.currentTimeMillis() + ",\"offset\":" + offset + ",\"length\":0,\"cut\":true}");
    }

    private void append(String line) {
        try {
            if (channel == null) {
                channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
            }
            ByteBuffer bytes = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(false);
        } catch (IOException e) {
            log.error("Could not write to {}: {}; the entry was: {}", path, e.toString(), line);
        }
    }

    /** The ranges known to be damaged. */
    public QuarantinedRanges ranges() {
        return ranges;
    }

    /** Ranges added since the store started (recovery and reads). */
    public long recordedCount() {
        return recorded.sum();
    }

    public Path path() {
        return path;
    }

    @Override
    public synchronized void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                log.warn("Could not close {}: {}", path, e.toString());
            }
            channel = null;
        }
    }
}
