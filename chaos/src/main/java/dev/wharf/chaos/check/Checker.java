package dev.wharf.chaos.check;

import dev.wharf.chaos.check.LedgerReader.Delivery;
import dev.wharf.chaos.check.LedgerReader.Send;
import dev.wharf.chaos.nemesis.FaultEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a run's ledger the way Jepsen's queue checker does, plus order, offsets and availability:
 * <ul>
 *   <li>lost: acknowledged (SEND_OK) but never delivered; phantom: delivered but never sent;</li>
 *   <li>duplicates: deliveries beyond the first of an id; sends that failed but were delivered are counted apart;</li>
 *   <li>order: within a queue, one producer's messages must be delivered (first time) in the order it sent them
 *       (each producer thread sends one at a time, so its order is known);</li>
 *   <li>offsets: one queue offset delivered with two different ids (a cut-and-rewritten queue), and acknowledged
 *       offsets that differ from the delivered one;</li>
 *   <li>failover: per broker name, from the first failed send to the answer of the next acknowledged one; each
 *       window is also charged to the latest fault begun before it.</li>
 * </ul>
 */
public final class Checker {

    private static final int LOST_SAMPLE = 10;
    /** How long after a fault's repair a new window is still charged to it (a restarted replica catching up). */
    private static final long AFTERMATH_MILLIS = 20_000;
    /**
     * An acknowledged send this slow rode through a failover (the client retries a send that stored nothing until
     * its timeout), which the unavailability windows do not show.
     */
    static final long SLOW_ACK_MILLIS = 1_000;

    private Checker() {
    }

    public static Report check(Path ledgerDir, Observations observations) throws IOException {
        List<Send> sends = LedgerReader.sends(ledgerDir);
        List<Delivery> deliveries = LedgerReader.deliveries(ledgerDir);

        Map<String, Send> byId = new HashMap<>(sends.size() * 2);
        long acked = 0;
        for (Send s : sends) {
            byId.put(s.id(), s);
            if (s.ok()) {
                acked++;
            }
        }
        Map<String, Integer> seen = new HashMap<>(deliveries.size() * 2);
        long phantoms = 0;
        long duplicates = 0;
        long offsetMoved = 0;
        long orderViolations = 0;
        long offsetConflicts = 0;
        // queue -> producer -> highest sequence delivered so far; queue -> offset -> id
        Map<String, Map<Integer, Long>> lastSeq = new HashMap<>();
        Map<String, Map<Long, String>> offsetIds = new HashMap<>();
        for (Delivery d : deliveries) {
            String queue = d.broker() + "/" + d.queue();
            String other = offsetIds.computeIfAbsent(queue, k -> new HashMap<>()).putIfAbsent(d.queueOffset(), d.id());
            if (other != null && !other.equals(d.id())) {
                offsetConflicts++;
            }
            int count = seen.merge(d.id(), 1, Integer::sum);
            if (count > 1) {
                duplicates++;
                continue;
            }
            Send s = byId.get(d.id());
            if (s == null) {
                phantoms++;
                continue;
            }
            if (s.ok() && s.queueOffset() != d.queueOffset()) {
                offsetMoved++;
            }
            Map<Integer, Long> perProducer = lastSeq.computeIfAbsent(queue, k -> new HashMap<>());
            Long last = perProducer.get(s.producer());
            if (last != null && s.seq() < last) {
                orderViolations++;
            } else {
                perProducer.put(s.producer(), s.seq());
            }
        }
        List<String> lost = new ArrayList<>();
        long lostCount = 0;
        long recoveredUnacked = 0;
        for (Send s : sends) {
            boolean delivered = seen.containsKey(s.id());
            if (s.ok() && !delivered) {
                lostCount++;
                if (lost.size() < LOST_SAMPLE) {
                    lost.add(s.id() + "@" + s.broker() + "/" + s.queue() + ":" + s.queueOffset());
                }
            } else if (!s.ok() && delivered) {
                recoveredUnacked++;
            }
        }

        Map<String, List<Long>> windows = new TreeMap<>();
        List<String> unrecovered = new ArrayList<>();
        Map<String, List<Send>> perBroker = new TreeMap<>();
        sends.forEach(s -> perBroker.computeIfAbsent(s.broker(), k -> new ArrayList<>()).add(s));
        List<Long> all = new ArrayList<>();
        Map<String, List<Long>> duringFault = new TreeMap<>();
        perBroker.forEach((broker, list) -> {
            list.sort(Comparator.comparingLong(Send::sentAt));
            List<Long> w = windows.computeIfAbsent(broker, k -> new ArrayList<>());
            long start = -1;
            for (Send s : list) {
                if (!s.ok()) {
                    if (start < 0) {
                        start = s.sentAt();
                    }
                } else if (start >= 0) {
                    long length = Math.max(0, s.answeredAt() - start);
                    w.add(length);
                    duringFault.computeIfAbsent(faultAt(observations.faults(), start), k -> new ArrayList<>())
                            .add(length);
                    start = -1;
                }
            }
            if (start >= 0) {
                unrecovered.add(broker + " since " + start);
            }
            all.addAll(w);
        });
        List<Long> ackLatency = new ArrayList<>();
        long slowAcks = 0;
        for (Send s : sends) {
            if (s.ok()) {
                long latency = Math.max(0, s.answeredAt() - s.sentAt());
                ackLatency.add(latency);
                if (latency >= SLOW_ACK_MILLIS) {
                    slowAcks++;
                }
            }
        }
        Map<String, Long> reasons = new TreeMap<>();
        sends.stream().filter(s -> !s.ok()).forEach(s -> reasons.merge(s.reason(), 1L, Long::sum));
        Map<String, Durations> failover = new TreeMap<>();
        windows.forEach((k, v) -> failover.put(k, Durations.of(v)));
        Map<String, Durations> byFault = new TreeMap<>();
        duringFault.forEach((k, v) -> byFault.put(k, Durations.of(v)));
        return new Report(sends.size(), acked, sends.size() - acked, seen.size(), deliveries.size(), lost, lostCount,
                phantoms, duplicates, recoveredUnacked, orderViolations, offsetConflicts, offsetMoved, failover,
                Durations.of(all), byFault, unrecovered, reasons, Durations.of(ackLatency), slowAcks, observations);
    }

    /**
     * The kind of the latest fault that began before a window did (a second of slack for clocks read on different
     * threads), or "no fault" when there is none or it was healed more than {@link #AFTERMATH_MILLIS} before.
     */
    private static String faultAt(List<FaultEvent> faults, long windowStart) {
        FaultEvent latest = null;
        for (FaultEvent f : faults) {
            if (f.startedAt() - 1_000 <= windowStart && (latest == null || f.startedAt() > latest.startedAt())) {
                latest = f;
            }
        }
        if (latest == null || (latest.healedAt() > 0 && windowStart > latest.healedAt() + AFTERMATH_MILLIS)) {
            return "no fault";
        }
        return latest.kind().optionName();
    }
}
