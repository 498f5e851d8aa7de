package dev.wharf.samples.listener;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs the listener sample as its README does, twice on one store: the second run finds the durable and shared
 * subscriptions and the queues of the first, and its listeners must still get exactly what it sent.
 */
@ExtendWith(OutputCaptureExtension.class)
class ListenerSampleTest {

    @TempDir
    Path dir;

    @Test
    void everyListenerGetsWhatWasSentToIt(CapturedOutput output) {
        for (int run = 1; run <= 2; run++) {
            ConfigurableApplicationContext context = SpringApplication.run(ListenerSampleApplication.class,
                    "--wharf.embedded.store-dir=" + dir.resolve("store"), "--logging.level.dev.wharf.samples=WARN");
            List<SampleRunner.Check> checks = context.getBean(SampleRunner.class).checks();
            assertThat(SpringApplication.exit(context)).as("exit code of run %d: %s", run, checks).isZero();
            assertThat(checks).hasSize(5).allMatch(SampleRunner.Check::ok);
        }

        assertThat(output.getOut()).containsPattern("queue tasks\\s+3 tasks done, \"poison: fold the kettle\" tried"
                        + " 3 times \\(1 delivery \\+ 2 redeliveries\\)")
                .containsPattern("dead-letter queue %DLQ%tasks\\s+1 received: \"poison: fold the kettle\"")
                .containsPattern("queue alerts, selector severity = 'HIGH'\\s+2 of 5 alerts received")
                .containsPattern("durable subscription price-archive\\s+6 prices, 3 of them published while its"
                        + " listener was shut down")
                .containsPattern("shared subscription audit \\(3 consumers\\)\\s+12 events, spread over [123]"
                        + " consumer")
                .doesNotContain("messages left by earlier runs");
        assertThat(output.getOut().split("Every listener got what was sent to it.", -1)).hasSize(3);
    }
}
