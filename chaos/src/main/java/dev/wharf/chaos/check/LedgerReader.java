package dev.wharf.chaos.check;

import dev.wharf.chaos.workload.Ledger;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the {@link Ledger}'s two files back into records (the format is described there). */
final class LedgerReader {

    /** A send attempt; {@code queueOffset} is -1 for a failed one and {@code reason} empty for an acked one. */
    record Send(boolean ok, String id, String broker, int queue, long queueOffset, long sentAt, long answeredAt,
                String reason) {
        int producer() {
            return Integer.parseInt(id.substring(0, id.indexOf('-')));
        }

        long seq() {
            return Long.parseLong(id.substring(id.indexOf('-') + 1));
        }
    }

    /** A delivery. */
    record Delivery(String id, String broker, int queue, long queueOffset, long receivedAt) {
    }

    private LedgerReader() {
    }

    static List<Send> sends(Path dir) throws IOException {
        List<Send> out = new ArrayList<>();
        forEachLine(dir.resolve(Ledger.SENDS), f -> {
            boolean ok = f[0].equals("ok");
            out.add(new Send(ok, f[1], f[2], Integer.parseInt(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]),
                    Long.parseLong(f[6]), ok ? "" : f[7]));
        }, 7);
        return out;
    }

    static List<Delivery> deliveries(Path dir) throws IOException {
        List<Delivery> out = new ArrayList<>();
        forEachLine(dir.resolve(Ledger.DELIVERIES), f -> out.add(new Delivery(f[0], f[1], Integer.parseInt(f[2]),
                Long.parseLong(f[3]), Long.parseLong(f[4]))), 5);
        return out;
    }

    private interface LineHandler {
        void accept(String[] fields);
    }

    private static void forEachLine(Path file, LineHandler handler, int minFields) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split(" ");
                if (f.length < minFields) {
                    // the last line of a ledger whose writer was killed may be cut short
                    throw new IOException(file + " line " + number + " has " + f.length + " fields, expected "
                            + minFields + ": \"" + line + "\"");
                }
                try {
                    handler.accept(f);
                } catch (RuntimeException e) {
                    throw new IOException(file + " line " + number + " is malformed: \"" + line + "\" (" + e + ")",
                            e);
                }
            }
        }
    }
}
