package dev.wharf.benchmarks.soak;

import dev.wharf.store.recovery.QuarantineReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The end check: every acknowledged message is delivered, or lies in a commit-log range the broker's quarantine
 * report lists; anything else is lost. Also counts duplicates, deliveries of sends that were not acknowledged,
 * and quarantined ranges the tool did not cause.
 */
final class SoakCheck {

    private static final Pattern OFFSET = Pattern.compile("\"offset\":(\\d+)");
    private static final Pattern LENGTH = Pattern.compile("\"length\":(\\d+)");

    /** A missing acknowledged message. */
    record Missing(long id, long offset) {
    }

    long sent;
    long acked;
    long ackedDelivered;
    long duplicates;
    long deliveredNotAcked;
    long refusedDelivered;
    long quarantinedMissing;
    long quarantineRanges;
    long quarantineRangesNotInjected;
    long injectedNotQuarantined;
    final List<Missing> lost = new ArrayList<>();

    /** The ranges {@code quarantine.jsonl} lists at the end (a cut line forgets ranges at or past its offset). */
    static List<SoakDamage.Range> quarantined(Path storeRoot) throws IOException {
        Path file = storeRoot.resolve(QuarantineReport.FILE_NAME);
        List<SoakDamage.Range> ranges = new ArrayList<>();
        if (!Files.exists(file)) {
            return ranges;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            Matcher o = OFFSET.matcher(line);
            Matcher l = LENGTH.matcher(line);
            if (!o.find() || !l.find()) {
                continue;
            }
            long offset = Long.parseLong(o.group(1));
            if (line.contains("\"cut\":true")) {
                ranges.removeIf(r -> r.offset() >= offset);
            } else {
                ranges.add(new SoakDamage.Range(offset, (int) Long.parseLong(l.group(1))));
            }
        }
        return ranges;
    }

    static SoakCheck run(Ledger ledger, List<SoakDamage.Range> quarantine, List<SoakDamage.Range> injected) {
        SoakCheck c = new SoakCheck();
        c.quarantineRanges = quarantine.size();
        for (SoakDamage.Range q : quarantine) {
            if (injected.stream().noneMatch(d -> d.overlaps(q.offset(), q.length()))) {
                c.quarantineRangesNotInjected++;
            }
        }
        for (SoakDamage.Range d : injected) {
            if (quarantine.stream().noneMatch(q -> q.overlaps(d.offset(), d.length()))) {
                c.injectedNotQuarantined++;
            }
        }
        for (int p = 0; p < ledger.producers(); p++) {
            Ledger.Snapshot s = ledger.snapshot(p);
            c.sent += s.size();
            for (int seq = 0; seq < s.size(); seq++) {
                int n = s.deliveries()[seq];
                c.duplicates += Math.max(0, n - 1);
                byte state = s.states()[seq];
                if (state != Ledger.ACKED) {
                    if (n > 0) {
                        c.deliveredNotAcked++;
                        if (state == Ledger.REFUSED_DISK_FULL) {
                            c.refusedDelivered++;
                        }
                    }
                    continue;
                }
                c.acked++;
                if (n > 0) {
                    c.ackedDelivered++;
                    continue;
                }
                long offset = s.offsets()[seq];
                if (quarantine.stream().anyMatch(q -> q.overlaps(offset, 1))) {
                    c.quarantinedMissing++;
                } else {
                    c.lost.add(new Missing(Ledger.id(p, seq), offset));
                }
            }
        }
        return c;
    }

    /** Acknowledged messages neither delivered nor quarantined so far (for the drain's progress). */
    static long undelivered(Ledger ledger) {
        long n = 0;
        for (int p = 0; p < ledger.producers(); p++) {
            Ledger.Snapshot s = ledger.snapshot(p);
            for (int seq = 0; seq < s.size(); seq++) {
                if (s.states()[seq] == Ledger.ACKED && s.deliveries()[seq] == 0) {
                    n++;
                }
            }
        }
        return n;
    }
}
