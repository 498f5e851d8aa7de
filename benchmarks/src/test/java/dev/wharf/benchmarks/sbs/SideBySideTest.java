package dev.wharf.benchmarks.sbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.benchmarks.BenchArgs;
import dev.wharf.jms.vm.VmBrokerRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** One tiny round against an embedded Artemis and an in-JVM Wharf: every workload runs and is reported. */
class SideBySideTest {

    @TempDir
    Path dir;

    @AfterEach
    void stopBrokers() {
        VmBrokerRegistry.shared().stopAll();
    }

    @Test
    @Timeout(90)
    void oneTinyRoundRunsEveryWorkloadOnBothProvidersAndPrintsTheirRatios() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
        SideBySide sbs = new SideBySide(BenchArgs.parse(new String[] {"--seconds", "0.3", "--rounds", "1",
                "--warmup", "0", "--size", "256", "--batch", "10", "--providers", "artemis-nosync,wharf-async"},
                SideBySide.OPTIONS), out);

        Results results = sbs.run(dir);
        results.print(out);

        String printed = text.toString(StandardCharsets.UTF_8);
        for (String provider : new String[] {"artemis-nosync", "wharf-async"}) {
            for (String workload : Results.WORKLOADS) {
                assertThat(results.rates(provider, workload)).as(provider + " " + workload + "\n" + printed)
                        .hasSize(1).allMatch(rate -> rate > 0);
                assertThat(printed).contains("RESULT r0 " + provider + " " + workload + " ");
            }
        }
        assertThat(printed).contains("page cache: wharf-async ÷ artemis-nosync", "| sendtx |");
    }

    @Test
    void anUnknownProviderIsNamedWithTheKnownOnes() {
        assertThatThrownBy(() -> new SideBySide(BenchArgs.parse(new String[] {"--providers", "artemis,hornetq"},
                SideBySide.OPTIONS), System.out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hornetq").hasMessageContaining("wharf-sync");
    }
}
