package dev.wharf.samples.jmstemplate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Runs the JmsTemplate sample as its README does, twice on one store (the second run must not see the first's). */
@ExtendWith(OutputCaptureExtension.class)
class JmsTemplateSampleTest {

    @TempDir
    Path dir;

    @Test
    void textJsonAndRequestReplyComeBackAsSent(CapturedOutput output) {
        String[] args = {"--wharf.embedded.store-dir=" + dir.resolve("store"), "--logging.level.dev.wharf=WARN"};

        assertThat(JmsTemplateSampleApplication.run(args)).as("exit code of the first run").isZero();
        assertThat(JmsTemplateSampleApplication.run(args)).as("exit code of the second run").isZero();

        String out = output.getOut();
        assertThat(out).contains("JmsTemplate sample, on the embedded broker (store " + dir.resolve("store"))
                .containsPattern("received\\s+the same text, customer ACME Tea Rooms")
                .containsPattern("on the wire\\s+\\{\"number\":\"INV-[0-9-]+\",\"customer\":\"ACME Tea Rooms\","
                        + "\"totalCents\":12999,\"due\":\"[0-9-]+\"}")
                .containsPattern("received and converted\\s+equal to the invoice sent: yes")
                .containsPattern("reply \\(temporary queue\\)\\s+PriceQuote\\[item=kettle, quantity=3,"
                        + " totalCents=7497]");
        assertThat(out.split("All 3 exchanges came back as sent.", -1)).as("two runs, both complete").hasSize(3);
    }
}
