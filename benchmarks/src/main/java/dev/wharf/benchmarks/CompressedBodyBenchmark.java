package dev.wharf.benchmarks;

import dev.wharf.common.message.BodyInflater;
import dev.wharf.common.message.MessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;

/**
 * What the broker's check of compressed bodies costs on the send path: for bodies of JSON-like text of several
 * sizes, compressed as the producer does (deflate level 5), the time to count their inflated length within
 * maxMessageSize ({@link BodyInflater#inflatedLength}, what the broker does per compressed message), next to the
 * time the producer spent compressing them. Single thread, after a warm-up.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.CompressedBodyBenchmark}
 */
public final class CompressedBodyBenchmark {

    private static final int[] SIZES = {8 * 1024, 64 * 1024, 1024 * 1024, 4 * 1024 * 1024};
    private static final int MAX_MESSAGE_SIZE = 4 * 1024 * 1024;

    private CompressedBodyBenchmark() {
    }

    public static void main(String[] args) {
        System.out.println("body bytes  compressed  deflate us/msg  check us/msg  check MB/s (inflated)");
        for (int size : SIZES) {
            byte[] body = jsonLike(size, new Random(size));
            byte[] packed = MessageDecoder.deflate(body, 5);
            int rounds = Math.max(20, (64 * 1024 * 1024) / size);
            long deflateNanos = time(rounds, () -> MessageDecoder.deflate(body, 5).length);
            long checkNanos = time(rounds, () -> BodyInflater.inflatedLength(packed, MAX_MESSAGE_SIZE));
            double checkMicros = checkNanos / 1_000.0 / rounds;
            System.out.printf(Locale.ROOT, "%10d  %10d  %14.1f  %12.1f  %10.0f%n", size, packed.length,
                    deflateNanos / 1_000.0 / rounds, checkMicros, size / checkMicros);
        }
    }

    /** Nanoseconds for {@code rounds} runs, after as many unmeasured ones. */
    private static long time(int rounds, java.util.function.IntSupplier work) {
        long sink = 0;
        for (int i = 0; i < rounds; i++) {
            sink += work.getAsInt();
        }
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            sink += work.getAsInt();
        }
        long elapsed = System.nanoTime() - start;
        if (sink == 42) {
            System.out.print("");
        }
        return elapsed;
    }

    /** Records such as an application sends: field names repeat, values vary. */
    private static byte[] jsonLike(int size, Random random) {
        StringBuilder sb = new StringBuilder(size + 128);
        while (sb.length() < size) {
            sb.append("{\"orderId\":").append(random.nextInt(1_000_000)).append(",\"customer\":\"c-")
                    .append(random.nextInt(50_000)).append("\",\"amount\":").append(random.nextInt(100_000) / 100.0)
                    .append(",\"status\":\"").append(random.nextBoolean() ? "PAID" : "OPEN").append("\"}\n");
        }
        return sb.substring(0, size).getBytes(StandardCharsets.UTF_8);
    }
}
