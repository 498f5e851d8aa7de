package dev.wharf.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One selector evaluated by several threads at once gives every thread the answer a plain oracle gives. */
class SelectorConcurrencyTest {

    private static final int THREADS = 8;
    private static final int MESSAGES_PER_THREAD = 20_000;
    private static final String[] TYPES = {"car", "truck", "bike"};
    private static final String[] COLORS = {"red", "blue", "green"};
    private static final String[] NAMES = {"xray", "alpha", "x", "beta"};

    @Test
    void oneSelectorIsSharedSafelyBetweenThreads() throws Exception {
        Selector selector = SelectorParser.parse("JMSType = 'car' AND weight BETWEEN 100 AND 200"
                + " AND (color IN ('red', 'blue') OR name LIKE 'x%') AND NOT (weight / divisor = 7)");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<int[]>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                long seed = t;
                results.add(pool.submit(() -> {
                    start.await();
                    return evaluateMany(selector, new SplittableRandom(seed));
                }));
            }
            start.countDown();
            int matched = 0;
            for (Future<int[]> result : results) {
                int[] counts = result.get(30, TimeUnit.SECONDS);
                assertThat(counts[0]).as("evaluations that disagree with the oracle").isZero();
                matched += counts[1];
            }
            // The random messages exercise both outcomes.
            assertThat(matched).isBetween(1, THREADS * MESSAGES_PER_THREAD - 1);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** Returns {mismatches, matches}. */
    private static int[] evaluateMany(Selector selector, SplittableRandom random) {
        int mismatches = 0;
        int matches = 0;
        for (int i = 0; i < MESSAGES_PER_THREAD; i++) {
            Map<String, Object> message = new HashMap<>();
            message.put("JMSType", TYPES[random.nextInt(TYPES.length)]);
            message.put("weight", random.nextInt(50, 250));
            message.put("color", COLORS[random.nextInt(COLORS.length)]);
            message.put("name", NAMES[random.nextInt(NAMES.length)]);
            if (random.nextBoolean()) {
                message.put("divisor", random.nextInt(0, 30));
            }
            boolean actual = selector.matches(message::get);
            if (actual != oracle(message)) {
                mismatches++;
            }
            if (actual) {
                matches++;
            }
        }
        return new int[] {mismatches, matches};
    }

    private static boolean oracle(Map<String, Object> message) {
        int weight = (Integer) message.get("weight");
        String color = (String) message.get("color");
        Integer divisor = (Integer) message.get("divisor");
        // NOT (weight / divisor = 7) is UNKNOWN, so no match, when divisor is missing or zero.
        boolean notSeven = divisor != null && divisor != 0 && weight / divisor != 7;
        return message.get("JMSType").equals("car")
                && weight >= 100 && weight <= 200
                && (color.equals("red") || color.equals("blue") || ((String) message.get("name")).startsWith("x"))
                && notSeven;
    }
}
