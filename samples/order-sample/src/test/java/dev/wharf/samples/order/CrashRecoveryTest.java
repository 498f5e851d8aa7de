package dev.wharf.samples.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The README's crash demonstration: a run in a child JVM with the embedded broker is killed right after the database
 * commit of its first order, before the message commit; the next run, on the same store and database, receives
 * that order's message through the broker's check-back (answered from the database) and settles it.
 */
@ExtendWith(OutputCaptureExtension.class)
class CrashRecoveryTest {

    @TempDir
    Path dir;

    @Test
    void theNextRunReceivesTheKilledOrdersMessageThroughTheCheckBack(CapturedOutput output) throws Exception {
        List<String> crashed = new ArrayList<>();
        int exit = runChild(crashed, "--order.orders=5", "--order.crash-after-commit");
        assertThat(exit).as("the crash run halted itself: %s", crashed).isEqualTo(CrashSwitch.EXIT_CODE);
        assertThat(crashed).contains("Killed the JVM right after the database commit of order #1001: its row is"
                + " committed, its OrderCreated message is not.");

        ConfigurableApplicationContext context = SpringApplication.run(OrderSampleApplication.class,
                SampleArgs.of(dir, "--order.orders=5", "--order.payment-window=4s"));
        RunSummary summary = context.getBean(SampleRunner.class).summary();
        assertThat(SpringApplication.exit(context)).as("exit code").isZero();

        assertThat(summary.run()).isEqualTo(2);
        assertThat(summary.carriedOver()).as("the killed run's order was committed in the database")
                .containsExactly(1001L);
        assertThat(summary.recovered()).as("its message came from the check-back").containsExactly(1001L);
        assertThat(summary.ids(OrderStatus.PAID)).as("and went the normal way").contains(1001L, 2001L);
        assertThat(summary.ids(OrderStatus.CANCELLED)).containsExactly(2005L);
        assertThat(summary.open()).isEmpty();
        assertThat(summary.checkBacks()).startsWith("commit ").doesNotStartWith("commit 0");
        assertThat(output.getOut()).containsPattern("open from earlier runs\\s+1\\s+#1001")
                .containsPattern("recovered by check-back\\s+1\\s+#1001")
                .contains("All 6 orders settled in");
        OrderSampleTest.assertStockBalances(dir, 0);
    }

    /** Runs the sample in a child JVM on this test's class path; returns its exit code, its output in {@code out}. */
    private int runChild(List<String> out, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                OrderSampleApplication.class.getName()));
        command.addAll(List.of(SampleArgs.of(dir, args)));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the child is gone
            }
        }, "order-sample-child-output");
        reader.start();
        try {
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child finished: %s", lines).isTrue();
        } finally {
            child.destroyForcibly();
            reader.join(5_000);
        }
        out.addAll(lines);
        return child.exitValue();
    }
}
