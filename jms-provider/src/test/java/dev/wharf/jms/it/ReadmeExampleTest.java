package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.testing.TestWharf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README example works as written, in a process of its own: against an in-JVM broker (and the process ends
 * by itself when main returns) and against a standalone server on loopback.
 */
class ReadmeExampleTest {

    @TempDir
    Path store;

    private static String run(String... args) throws IOException, InterruptedException {
        String[] command = new String[4 + args.length];
        command[0] = ProcessHandle.current().info().command().orElse("java");
        command[1] = "-cp";
        command[2] = System.getProperty("java.class.path");
        command[3] = JmsInTwentyLines.class.getName();
        System.arraycopy(args, 0, command, 4, args.length);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ended) {
            p.destroyForcibly();
        }
        assertThat(ended).as("the example's process ends by itself; output:\n" + out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void againstAnInJvmBroker() throws Exception {
        assertThat(run()).contains("received: order #1");
    }

    @Test
    void againstAStandaloneServer() throws Exception {
        try (TestWharf wharf = TestWharf.loopback(store)) {
            assertThat(run(wharf.url())).contains("received: order #1");
        }
    }
}
