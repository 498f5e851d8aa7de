package dev.wharf.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A RocketMQ client configured with {@code rocketmq.serialize.type=ROCKETMQ} sends every header in RocketMQ's binary
 * encoding; Wharf answers in kind (sends, compressed bodies, pulls). The client runs in a child JVM ({@link BinaryHeaderClientMain}) because it reads
 * the setting once per JVM.
 */
class BinaryHeaderCompatTest {

    @TempDir
    Path dir;

    @Test
    void aClientSendingBinaryHeadersSendsAndConsumes() throws Exception {
        try (TestWharf servers = WharfServers.start(dir.resolve("store"))) {
            Path out = dir.resolve("client.out");
            Process client = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-Drocketmq.serialize.type=ROCKETMQ", "-cp", System.getProperty("java.class.path"),
                    BinaryHeaderClientMain.class.getName(), servers.namesrvAddr(), "BinaryHeaders")
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            try {
                assertThat(client.waitFor(120, TimeUnit.SECONDS)).as("the client finished").isTrue();
            } finally {
                client.destroyForcibly();
            }
            List<String> results = Files.readAllLines(out, StandardCharsets.UTF_8).stream()
                    .filter(l -> l.startsWith("RESULT ")).toList();
            assertThat(results).as(Files.readString(out)).contains("RESULT serializeType=ROCKETMQ",
                    "RESULT sent 0 SEND_OK", "RESULT sent 3 SEND_OK",
                    "RESULT received [bin-0, bin-1, bin-2, bin-3, bin-oneway]", "RESULT intact true");
            assertThat(client.exitValue()).isZero();
        }
    }
}
