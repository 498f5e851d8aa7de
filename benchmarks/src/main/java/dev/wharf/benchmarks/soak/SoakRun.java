package dev.wharf.benchmarks.soak;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One soak run: mounts the small file system, starts the broker on it, starts the load, and until the duration
 * is over injects one episode after another, taking turns:
 *
 * <ul>
 *   <li><b>kill -9</b>: the broker is killed and restarted at once;</li>
 *   <li><b>disk full</b>: a ballast file fills the file system while the producers keep sending (each send must
 *       be acknowledged from space the store had reserved, or refused with the disk-full error), then it is
 *       deleted and the tool waits for the first acknowledgement;</li>
 *   <li><b>corruption</b>: the consumer pauses so that a backlog builds up, the broker is stopped (cleanly and
 *       with kill -9 in turn), flips or a garbage block go into the commit log below its flushed checkpoint
 *       (inside the backlog when it is large enough), the broker restarts and the consumer resumes.</li>
 * </ul>
 *
 * Then the producers stop, the consumer drains, the broker stops cleanly and {@link SoakCheck} accounts for every
 * acknowledged message. The disk image and the mount are removed in every case.
 */
final class SoakRun {

    /** The run's options (see {@link SoakTool} for their meaning). */
    record Settings(long durationSeconds, long episodeEverySeconds, double rate, int producers, int bodyBytes,
                    int queues, int diskMib, SoakDisk.Kind fs, int commitLogMib, String flush, int fullSeconds,
                    int backlogSeconds, boolean checkCrcOnRead, String brokerJvmOptions, Path workDir, long seed,
                    int episodeCount) {
    }

    /** The figures of a finished run. */
    record Result(SoakCheck check, long kills, long fulls, long corruptions, long unexpectedExits,
                  long failedDuringFull, long deliveredCorrupted, boolean passed) {
    }

    private enum Episode { KILL, DISK_FULL, CORRUPTION }

    private static final String TOPIC = "soak";
    private static final String GROUP = "soak-consumer";
    private static final long RESUME_SECONDS = 120;
    private static final long CHECKPOINT_WAIT_SECONDS = 90;
    private static final long DRAIN_IDLE_SECONDS = 60;
    private static final long DRAIN_MAX_SECONDS = 600;

    private final Settings s;
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private final List<SoakDamage.Range> injected = new ArrayList<>();
    private long kills;
    private long fulls;
    private long corruptions;
    private long corruptionsClean;
    private long corruptionsBlock;
    private long corruptionsInBacklog;
    private long damagedBytes;
    private long ballastBytes;
    private long maxResumeMillis;
    private long unexpectedExits;
    private long stalls;

    SoakRun(Settings settings, PrintStream out) {
        this.s = settings;
        this.out = out;
    }

    @SuppressWarnings("try") // SoakDisk and SoakLoad may throw InterruptedException from close(), as they should
    Result run() throws Exception {
        Files.createDirectories(s.workDir());
        Path log = s.workDir().resolve("broker.log");
        Path config = s.workDir().resolve("broker.conf");
        Files.writeString(config, brokerConfig(), StandardCharsets.UTF_8);
        print("work dir %s; broker log %s", s.workDir(), log);
        try (SoakDisk disk = SoakDisk.mount(s.workDir(), s.diskMib(), s.fs())) {
            Path store = disk.dir().resolve("store");
            print("store on %s (%s, %,d MiB); %s flush, %.0f msgs/s from %d producers, %d-byte bodies, %d queues;"
                    + " an episode every %d s for %d s", store, disk.kind(), s.diskMib(), s.flush(), s.rate(),
                    s.producers(), s.bodyBytes(), s.queues(), s.episodeEverySeconds(), s.durationSeconds());
            SoakBroker broker = new SoakBroker(store, config, log, s.flush(), s.brokerJvmOptions(),
                    SoakBroker.freePort(), SoakBroker.freePort());
            try {
                broker.start();
                createTopic(broker.nameServer());
                Ledger ledger = new Ledger(s.producers());
                Result result;
                try (SoakLoad load = new SoakLoad(broker.nameServer(), ledger, TOPIC, s.bodyBytes(), s.rate(),
                        GROUP)) {
                    load.start();
                    SoakDamage damage = new SoakDamage(store, (long) s.commitLogMib() << 20, s.seed());
                    episodes(disk, broker, load, damage, store);
                    load.stopProducing();
                    disk.free();
                    if (!broker.isAlive()) {
                        unexpectedExits++;
                        broker.start();
                    }
                    drain(ledger, store);
                    explainLost(ledger, store, broker.nameServer(), load.storeHost());
                    result = finish(ledger, load, store, broker);
                }
                return result;
            } finally {
                broker.stop();
            }
        }
    }

    private String brokerConfig() {
        return String.join("\n",
                "# written by the soak tool",
                "mappedFileSizeCommitLog=" + ((long) s.commitLogMib() << 20),
                "checkCRCOnRead=" + s.checkCrcOnRead(),
                // no retention clean-up: the end check must find every message the consumer has not read
                "cleanResourceInterval=86400000",
                "autoCreateTopicEnable=true",
                "haListenPort=" + freePortUnchecked(),
                "");
    }

    private static int freePortUnchecked() {
        try {
            return SoakBroker.freePort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port: " + e.getMessage(), e);
        }
    }

    private void createTopic(String nameServer) throws ClientException, InterruptedException {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer);
        config.setInstanceName("soak-admin");
        AdminClient admin = new AdminClient(config);
        admin.start();
        try {
            // a busy machine may keep the fresh broker from answering within the client's time-out: try again
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RESUME_SECONDS);
            for (;;) {
                try {
                    admin.createTopic(TOPIC, s.queues());
                    if (routed(admin)) {
                        return;
                    }
                } catch (ClientException e) {
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topic " + TOPIC + " has no route " + RESUME_SECONDS
                            + " s after it was created");
                }
                TimeUnit.MILLISECONDS.sleep(500);
            }
        } finally {
            admin.shutdown();
        }
    }

    private boolean routed(AdminClient admin) throws InterruptedException {
        try {
            return admin.route(TOPIC).queueDatas().stream().anyMatch(q -> q.writeQueueNums() == s.queues());
        } catch (ClientException e) {
            return false;
        }
    }

    private void episodes(SoakDisk disk, SoakBroker broker, SoakLoad load, SoakDamage damage, Path store)
            throws Exception {
        long end = startNanos + TimeUnit.SECONDS.toNanos(s.durationSeconds());
        long nextEpisode = System.nanoTime() + TimeUnit.SECONDS.toNanos(s.episodeEverySeconds());
        long nextProgress = System.nanoTime();
        int turn = 0;
        // with an episode count the run ends after that many episodes, however long they take
        while (s.episodeCount() > 0 ? turn < s.episodeCount() : System.nanoTime() < end) {
            if (System.nanoTime() >= nextProgress) {
                progress(load, disk);
                nextProgress += TimeUnit.SECONDS.toNanos(30);
            }
            if (!broker.isAlive()) {
                unexpectedExits++;
                print("the broker died by itself; restarting it (see its log)");
                broker.start();
            }
            if (System.nanoTime() >= nextEpisode) {
                Episode e = Episode.values()[turn++ % Episode.values().length];
                switch (e) {
                    case KILL -> kill(broker, load);
                    case DISK_FULL -> diskFull(disk, broker, load);
                    case CORRUPTION -> corrupt(broker, load, damage, store);
                    default -> throw new IllegalStateException(e.name());
                }
                nextEpisode = System.nanoTime() + TimeUnit.SECONDS.toNanos(s.episodeEverySeconds());
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        progress(load, disk);
    }

    private void kill(SoakBroker broker, SoakLoad load) throws Exception {
        load.phase(SoakLoad.Phase.BROKER_DOWN);
        broker.kill();
        kills++;
        long restarted = System.nanoTime();
        broker.start();
        awaitAck(load, restarted, "kill -9 #" + kills);
        load.phase(SoakLoad.Phase.NORMAL);
        print("kill -9 #%d: back after %d ms", kills, millisSince(restarted));
    }

    private void diskFull(SoakDisk disk, SoakBroker broker, SoakLoad load) throws Exception {
        fulls++;
        long refusedBefore = load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.REFUSED_DISK_FULL);
        long ackedBefore = load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.ACKED);
        long otherBefore = load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.REFUSED_OTHERWISE);
        long noAnswerBefore = load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.NO_ANSWER);
        long ballast = disk.fill();
        // from here on the disk is full: sends acknowledged now came from space the store had reserved
        load.phase(SoakLoad.Phase.DISK_FULL);
        ballastBytes += ballast;
        TimeUnit.SECONDS.sleep(s.fullSeconds());
        boolean alive = broker.isAlive();
        disk.free();
        long freed = System.nanoTime();
        if (!alive) {
            unexpectedExits++;
            print("disk full #%d: the broker died while the disk was full; restarting it", fulls);
            broker.start();
        }
        long resumeMillis = awaitAck(load, freed, "disk full #" + fulls);
        maxResumeMillis = Math.max(maxResumeMillis, resumeMillis);
        load.phase(SoakLoad.Phase.NORMAL);
        print("disk full #%d: %,d-byte ballast for %d s: %,d sends acknowledged, %,d refused as disk full, %,d refused"
                + " otherwise, %,d unanswered; first acknowledgement %d ms after the ballast was deleted", fulls,
                ballast, s.fullSeconds(), load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.ACKED) - ackedBefore,
                load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.REFUSED_DISK_FULL) - refusedBefore,
                load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.REFUSED_OTHERWISE) - otherBefore,
                load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.NO_ANSWER) - noAnswerBefore, resumeMillis);
    }

    private void corrupt(SoakBroker broker, SoakLoad load, SoakDamage damage, Path store) throws Exception {
        boolean clean = corruptions % 2 == 0;
        boolean block = (corruptions / 2) % 2 == 1;
        load.suspendConsumer();
        long backlogStart = load.maxAckedOffset() + 1;
        TimeUnit.SECONDS.sleep(s.backlogSeconds());
        if (!clean) {
            // a kill leaves the checkpoint where the last complete flush put it (every
            // flushConsumeQueueThoroughInterval): wait until it is inside the backlog, so that the damage lands in
            // records the consumer has still to read
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CHECKPOINT_WAIT_SECONDS);
            while (SoakDamage.safeOffset(store) < backlogStart + SoakDamage.MIN_REGION
                    && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(250);
            }
        }
        load.phase(SoakLoad.Phase.BROKER_DOWN);
        if (clean) {
            broker.stop();
        } else {
            broker.kill();
        }
        SoakDamage.Episode episode = damage.damage(store, backlogStart, block);
        long restarted = System.nanoTime();
        broker.start();
        awaitAck(load, restarted, "corruption");
        load.phase(SoakLoad.Phase.NORMAL);
        load.resumeConsumer();
        if (episode == null) {
            print("corruption: the log is still too short to damage below its checkpoint; skipped");
            return;
        }
        corruptions++;
        corruptionsClean += clean ? 1 : 0;
        corruptionsBlock += block ? 1 : 0;
        corruptionsInBacklog += episode.inBacklog() ? 1 : 0;
        damagedBytes += episode.bytes();
        injected.addAll(episode.ranges());
        print("corruption #%d: %s after a %s stop at %s (checkpoint %,d, %s); back after %d ms", corruptions,
                block ? "a " + SoakDamage.BLOCK + "-byte garbage block" : SoakDamage.FLIPS + " byte flips",
                clean ? "clean" : "kill -9", episode.ranges(), episode.safeOffset(),
                episode.inBacklog() ? "in the undelivered backlog" : "anywhere below the checkpoint",
                millisSince(restarted));
    }

    /** Waits for an acknowledgement after {@code since}; returns how long it took (or the time-out). */
    private long awaitAck(SoakLoad load, long since, String what) throws InterruptedException {
        long deadline = since + TimeUnit.SECONDS.toNanos(RESUME_SECONDS);
        while (load.lastAckNanos() < since && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        if (load.lastAckNanos() < since) {
            stalls++;
            print("%s: no send acknowledged %d s later (last error: %s)", what, RESUME_SECONDS,
                    load.lastOtherError());
        }
        return TimeUnit.NANOSECONDS.toMillis(Math.max(load.lastAckNanos(), since) - since);
    }

    /** Lets the consumer catch up until nothing acknowledged is missing or no progress comes for a while. */
    private void drain(Ledger ledger, Path store) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_MAX_SECONDS);
        long best = Long.MAX_VALUE;
        long lastProgress = System.nanoTime();
        for (;;) {
            int missing = SoakCheck.run(ledger, SoakCheck.quarantined(store), injected).lost.size();
            if (missing == 0) {
                print("drain: every acknowledged message is delivered or quarantined");
                return;
            }
            if (missing < best) {
                best = missing;
                lastProgress = System.nanoTime();
            }
            if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(DRAIN_IDLE_SECONDS)
                    || System.nanoTime() > deadline) {
                print("drain: %,d acknowledged messages still missing, no progress for %d s", missing,
                        DRAIN_IDLE_SECONDS);
                return;
            }
            TimeUnit.SECONDS.sleep(2);
        }
    }

    /** For the first lost messages: does the broker still hold them (a delivery problem) or not (a store loss)? */
    private void explainLost(Ledger ledger, Path store, String nameServer, long storeHost) throws Exception {
        List<SoakCheck.Missing> lost = SoakCheck.run(ledger, SoakCheck.quarantined(store), injected).lost;
        if (lost.isEmpty() || storeHost < 0) {
            return;
        }
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer);
        config.setInstanceName("soak-explain");
        AdminClient admin = new AdminClient(config);
        admin.start();
        try {
            for (SoakCheck.Missing m : lost.subList(0, Math.min(20, lost.size()))) {
                String found;
                try {
                    MessageExt msg = admin.viewMessage(MessageId.create(storeHost, m.offset()));
                    found = msg == null ? "not found" : "stored: queue " + msg.getQueueId() + " offset "
                            + msg.getQueueOffset() + ", body " + (SoakBody.idOf(msg.getBody()) == m.id()
                            ? "intact id" : "of id " + SoakBody.idOf(msg.getBody()));
                } catch (ClientException e) {
                    found = "lookup failed: " + e.getMessage();
                }
                print("LOST id %d (producer %d, seq %d) at commit-log offset %,d: %s", m.id(),
                        m.id() >>> Ledger.SEQUENCE_BITS, m.id() & Ledger.SEQUENCE_MASK, m.offset(), found);
            }
        } finally {
            admin.shutdown();
        }
    }

    private Result finish(Ledger ledger, SoakLoad load, Path store, SoakBroker broker) throws Exception {
        load.close();
        broker.stop();
        List<SoakDamage.Range> quarantine = SoakCheck.quarantined(store);
        SoakCheck c = SoakCheck.run(ledger, quarantine, injected);
        // an answer other than "disk full" while the disk is full breaks the promise; a time-out on a busy
        // machine does not (it is counted and shown)
        long failedDuringFull = load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.REFUSED_OTHERWISE);
        long corrupted = ledger.deliveredCorrupted.sum();
        boolean passed = c.lost.isEmpty() && corrupted == 0 && unexpectedExits == 0 && failedDuringFull == 0
                && c.quarantineRangesNotInjected == 0 && stalls == 0;
        long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
        out.println();
        out.println("=== Soak result: " + (passed ? "PASS" : "FAIL") + " ===");
        line("run", "%d min %02d s in all (load and episodes %d s), %s flush, %.0f msgs/s from %d producers, "
                + "%d-byte bodies, %d queues, %s file system of %,d MiB, %d MiB commit-log files, checkCRCOnRead=%s",
                elapsed / 60, elapsed % 60, s.durationSeconds(), s.flush(), s.rate(), s.producers(), s.bodyBytes(),
                s.queues(), s.fs(), s.diskMib(), s.commitLogMib(), s.checkCrcOnRead());
        line("sends", "%,d attempted: %,d acknowledged, %,d refused as disk full, %,d refused otherwise and %,d "
                + "unanswered (%,d of these two while the broker was down on purpose)", c.sent, c.acked,
                load.count(SoakLoad.Outcome.REFUSED_DISK_FULL), load.count(SoakLoad.Outcome.REFUSED_OTHERWISE),
                load.count(SoakLoad.Outcome.NO_ANSWER),
                load.count(SoakLoad.Phase.BROKER_DOWN, SoakLoad.Outcome.REFUSED_OTHERWISE)
                        + load.count(SoakLoad.Phase.BROKER_DOWN, SoakLoad.Outcome.NO_ANSWER));
        line("episodes", "%d kill -9, %d disk full, %d corruption (%d after a clean stop, %d after kill -9; %d with "
                + "byte flips, %d with garbage blocks; %d in the undelivered backlog; %,d bytes damaged); %d broker "
                + "starts", kills, fulls, corruptions, corruptionsClean, corruptions - corruptionsClean,
                corruptions - corruptionsBlock, corruptionsBlock, corruptionsInBacklog, damagedBytes,
                broker.starts());
        line("disk full", "%,d sends acknowledged, %,d refused as disk full, %,d refused otherwise, %,d unanswered "
                + "while full; slowest return to acknowledging after the ballast went: %,d ms",
                load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.ACKED),
                load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.REFUSED_DISK_FULL), failedDuringFull,
                load.count(SoakLoad.Phase.DISK_FULL, SoakLoad.Outcome.NO_ANSWER), maxResumeMillis);
        line("deliveries", "%,d in all; %,d of the acknowledged messages delivered; %,d duplicates; %,d delivered "
                + "although not acknowledged (%,d of them refused as disk full); %,d corrupted; %,d unknown",
                load.deliveries(), c.ackedDelivered, c.duplicates, c.deliveredNotAcked, c.refusedDelivered, corrupted,
                ledger.deliveredForeign.sum());
        line("quarantine", "%d ranges listed (%d not caused by the tool); %,d acknowledged messages in them; %d of "
                + "the %d damaged ranges are in none (they hit no record a consumer read afterwards, or only header "
                + "fields outside the body CRC: the body was delivered intact)", c.quarantineRanges,
                c.quarantineRangesNotInjected, c.quarantinedMissing, c.injectedNotQuarantined, injected.size());
        line("lost", "%,d acknowledged messages neither delivered nor quarantined", c.lost.size());
        if (unexpectedExits > 0 || stalls > 0) {
            line("broker", "%d exits nobody asked for, %d times no acknowledgement within %d s of a restart",
                    unexpectedExits, stalls, RESUME_SECONDS);
        }
        return new Result(c, kills, fulls, corruptions, unexpectedExits, failedDuringFull, corrupted, passed);
    }

    private void progress(SoakLoad load, SoakDisk disk) throws IOException {
        long total = disk.totalBytes();
        long used = total - disk.usableBytes();
        print("progress: %,d acknowledged, %,d refused as disk full, %,d failed, %,d delivered; episodes: %d kill, "
                + "%d full, %d corruption; disk %d%% used", load.count(SoakLoad.Outcome.ACKED),
                load.count(SoakLoad.Outcome.REFUSED_DISK_FULL), load.count(SoakLoad.Outcome.REFUSED_OTHERWISE)
                        + load.count(SoakLoad.Outcome.NO_ANSWER),
                load.deliveries(), kills, fulls, corruptions, total == 0 ? 0 : used * 100 / total);
    }

    private void line(String what, String format, Object... args) {
        out.printf(Locale.ROOT, "%-11s " + format + "%n", prepend(what, args));
    }

    private static Object[] prepend(Object first, Object[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private void print(String format, Object... args) {
        long t = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
        out.printf(Locale.ROOT, "[%3d:%02d] " + format + "%n", prepend2(t / 60, t % 60, args));
    }

    private static Object[] prepend2(Object a, Object b, Object[] rest) {
        Object[] all = new Object[rest.length + 2];
        all[0] = a;
        all[1] = b;
        System.arraycopy(rest, 0, all, 2, rest.length);
        return all;
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }
}
