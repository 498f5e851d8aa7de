package dev.wharf.benchmarks;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.vm.VmBrokerRegistry;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.Arrays;
import java.util.Locale;

/**
 * The side-by-side benchmark's {@code sendtx} workload on one URL: one transacted session sends persistent 1 KiB
 * TextMessages and commits every {@code --batch} (100), for {@code --seconds} per round, {@code --rounds} rounds
 * after a warm-up round. Prints {@code RESULT sendtx URL msgs/s} per round and the median, so that runs of two
 * builds (or two URLs) can be alternated process by process and compared as ratios on a busy machine.
 *
 * <p>Run: {@code java -cp benchmarks/target/wharf-benchmarks.jar dev.wharf.benchmarks.TransactedSendBenchmark
 * --url "vm://s?flushDiskType=SYNC_FLUSH" --seconds 6 --rounds 3}.
 */
public final class TransactedSendBenchmark {

    private String url = "vm://sendtx";
    private int seconds = 6;
    private int rounds = 3;
    private int batch = 100;
    private int size = 1024;

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        TransactedSendBenchmark b = new TransactedSendBenchmark();
        b.parse(args);
        try {
            b.run();
        } finally {
            VmBrokerRegistry.shared().stopAll();
        }
        System.exit(0);
    }

    private void parse(String[] args) {
        for (int i = 0; i + 1 < args.length || i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value.");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--url" -> url = value;
                case "--seconds" -> seconds = Integer.parseInt(value);
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--batch" -> batch = Integer.parseInt(value);
                case "--size" -> size = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("Unknown option " + args[i]
                        + "; use --url URL, --seconds N, --rounds N, --batch N, --size BYTES.");
            }
        }
    }

    private void run() throws Exception {
        WharfConnectionFactory factory = new WharfConnectionFactory(url);
        String body = "x".repeat(size);
        String queue = "sendtx-" + Long.toString(System.currentTimeMillis(), 36);
        double[] rates = new double[rounds];
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            round(s, p, body, Math.min(3, seconds)); // warm-up
            for (int r = 0; r < rounds; r++) {
                rates[r] = round(s, p, body, seconds);
                System.out.printf(Locale.ROOT, "RESULT sendtx %s %.0f%n", url, rates[r]);
            }
        }
        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "MEDIAN sendtx %s %.0f%n", url, sorted[sorted.length / 2]);
    }

    private double round(Session s, MessageProducer p, String body, int secs) throws Exception {
        long start = System.nanoTime();
        long end = start + secs * 1_000_000_000L;
        long sent = 0;
        while (System.nanoTime() - end < 0) {
            for (int i = 0; i < batch; i++) {
                p.send(s.createTextMessage(body));
            }
            s.commit();
            sent += batch;
        }
        return sent / ((System.nanoTime() - start) / 1e9);
    }
}
