package dev.wharf.samples.orderly;

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

/** Runs the orderly sample as its README does: two instances, every listener gets what it should. */
@ExtendWith(OutputCaptureExtension.class)
class OrderlySampleTest {

    @TempDir
    Path dir;

    @Test
    void orderlyBroadcastingAndClusteringListenersGetWhatTheyShould(CapturedOutput output) {
        ConfigurableApplicationContext context = SpringApplication.run(OrderlySampleApplication.class,
                "--wharf.embedded.store-dir=" + dir.resolve("store"),
                "--wharf.messaging.offset-store-dir=" + dir.resolve("offsets"),
                "--logging.level.dev.wharf.samples=WARN");
        List<SampleRunner.Check> checks = context.getBean(SampleRunner.class).checks();
        assertThat(SpringApplication.exit(context)).as("exit code: %s", checks).isZero();
        assertThat(checks).hasSize(3).allMatch(SampleRunner.Check::ok);
        assertThat(output.getOut())
                .containsPattern("ORDERLY fulfilment \\(clustering\\)\\s+50 of 50 orders saw CREATED > PAID >"
                        + " PACKED > SHIPPED in order")
                .containsPattern("BROADCASTING price cache\\s+instance 1 got 10 updates, instance 2 10")
                .containsPattern("CLUSTERING price audit\\s+instance 1 audited \\d+, instance 2 \\d+ \\(together 10")
                .contains("Every listener got what it should.");
    }
}
