package dev.wharf.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * 4,000 queues with one message each in a store process whose open-file limit is 1,024 (four queues per
 * descriptor): before queues gave their descriptors back, every queue kept one and most writes failed with "Too many
 * open files". Written, then
 * killed (unclean), then restarted twice (unclean, clean): every message is readable each time, and a clean
 * restart maps no queue. The children are those of {@link ManyQueuesBenchmark}, which gives the 100,000-queue
 * figures.
 */
@Timeout(600)
class ManyQueuesProcessTest {

    private static final int TOPICS = 500;
    private static final int QUEUES = 8;
    private static final int OPEN_FILE_LIMIT = 1_024;
    private static final int CQ_UNITS = 1_000;

    @TempDir
    Path dir;

    @Test
    void fourTimesMoreQueuesThanOpenFilesSurviveACrashAndARestart() throws Exception {
        Path store = dir.resolve("store");
        Map<String, String> written = run(store, "write-crash");
        assertThat(written.get("readable")).isEqualTo(Integer.toString(TOPICS * QUEUES));
        assertThat(Long.parseLong(written.get("fds"))).isLessThan(OPEN_FILE_LIMIT);
        assertThat(Long.parseLong(written.get("maps"))).isLessThan(65_530);

        Map<String, String> afterCrash = run(store, "verify");
        assertThat(afterCrash.get("readable")).isEqualTo(Integer.toString(TOPICS * QUEUES));

        Map<String, String> afterCleanStop = run(store, "verify");
        assertThat(afterCleanStop.get("readable")).isEqualTo(Integer.toString(TOPICS * QUEUES));
        assertThat(afterCleanStop.get("mappedAfterStart")).isEqualTo("0");
        System.out.printf("%,d queues: unclean restart %s ms, clean restart %s ms, fds %s, maps %s%n",
                TOPICS * QUEUES, afterCrash.get("startMillis"), afterCleanStop.get("startMillis"), afterCleanStop.get("fds"),
                afterCleanStop.get("maps"));
    }

    /** Runs the child under the lowered limit; a {@code -crash} mode is killed once it says READY. */
    private Map<String, String> run(Path store, String mode) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of("bash", "-c",
                "ulimit -n " + OPEN_FILE_LIMIT + " && exec \"$0\" \"$@\"", java, "-Xmx512m",
                "-cp", System.getProperty("java.class.path"), ManyQueuesChild.class.getName(), store.toString(),
                Integer.toString(TOPICS), Integer.toString(QUEUES), mode, Integer.toString(CQ_UNITS)));
        Process child = new ProcessBuilder(command).redirectError(dir.resolve(mode + ".err").toFile()).start();
        Map<String, String> values = new HashMap<>();
        List<String> missing = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.equals("READY")) {
                    child.destroyForcibly();
                    break;
                }
                int eq = line.indexOf('=');
                if (eq > 0 && !line.contains(" ")) {
                    values.put(line.substring(0, eq), line.substring(eq + 1));
                } else if (line.startsWith("missing=")) {
                    missing.add(line);
                }
            }
        } finally {
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        assertThat(missing).as("messages not readable in %s (see %s)", mode, dir.resolve(mode + ".err")).isEmpty();
        if (!mode.endsWith("crash")) {
            assertThat(child.exitValue()).as("child %s exit; see %s", mode, dir.resolve(mode + ".err")).isZero();
        }
        return values;
    }
}
