package dev.wharf.chaos.workload;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The run's record on disk, written while it runs and read back by the checker, so a run can be checked again
 * later and a crash of the checker leaves the evidence. Two text files of space-separated fields, one event a line:
 *
 * <pre>
 * sends.log       ok   ID BROKER QUEUE QUEUE_OFFSET SENT_AT ANSWERED_AT
 *                 fail ID BROKER QUEUE -1           SENT_AT ANSWERED_AT REASON
 * deliveries.log  ID BROKER QUEUE QUEUE_OFFSET RECEIVED_AT
 * </pre>
 *
 * IDs are {@code P-SEQ} (producer thread, its sequence number, both decimal), times are wall-clock milliseconds and
 * REASON is one word (an exception class or a send status). Lines are buffered and flushed every few hundred
 * milliseconds and at {@link #close}.
 */
public final class Ledger implements AutoCloseable {

    /** The file of send attempts. */
    public static final String SENDS = "sends.log";
    /** The file of deliveries. */
    public static final String DELIVERIES = "deliveries.log";

    private final BufferedWriter sends;
    private final BufferedWriter deliveries;

    public Ledger(Path dir) {
        try {
            Files.createDirectories(dir);
            sends = Files.newBufferedWriter(dir.resolve(SENDS), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            deliveries = Files.newBufferedWriter(dir.resolve(DELIVERIES), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the ledger in " + dir, e);
        }
    }

    /** An acknowledged send (SEND_OK). */
    public void acked(String id, String broker, int queue, long queueOffset, long sentAt, long answeredAt) {
        write(sends, "ok " + id + ' ' + broker + ' ' + queue + ' ' + queueOffset + ' ' + sentAt + ' ' + answeredAt);
    }

    /** A send that failed or got no answer: its message may or may not be stored. */
    public void failed(String id, String broker, int queue, long sentAt, long answeredAt, String reason) {
        write(sends, "fail " + id + ' ' + broker + ' ' + queue + " -1 " + sentAt + ' ' + answeredAt + ' '
                + reason.replace(' ', '_'));
    }

    /** A message a consumer received. */
    public void delivered(String id, String broker, int queue, long queueOffset, long receivedAt) {
        write(deliveries, id + ' ' + broker + ' ' + queue + ' ' + queueOffset + ' ' + receivedAt);
    }

    private static void write(BufferedWriter w, String line) {
        synchronized (w) {
            try {
                w.write(line);
                w.newLine();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the ledger", e);
            }
        }
    }

    /** Pushes buffered lines to the files. */
    public void flush() {
        for (BufferedWriter w : new BufferedWriter[] {sends, deliveries}) {
            synchronized (w) {
                try {
                    w.flush();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write the ledger", e);
                }
            }
        }
    }

    @Override
    public void close() {
        flush();
        for (BufferedWriter w : new BufferedWriter[] {sends, deliveries}) {
            synchronized (w) {
                try {
                    w.close();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot close the ledger", e);
                }
            }
        }
    }
}
