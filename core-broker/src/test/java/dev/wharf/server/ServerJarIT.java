package dev.wharf.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.server.cli.ExitCodes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real server jar in child processes: {@code java -jar wharf-server.jar standalone} on port 0, admin commands
 * through the same jar, then SIGTERM and a graceful stop. Runs in the integration-test phase (maven-failsafe),
 * after the package phase built the jar; skipped with a message when the jar is not there.
 */
class ServerJarIT {

    private static final long STEP_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    void theJarRunsAStandaloneServerServesAdminCommandsAndStopsGracefullyOnSigterm() throws Exception {
        Path jar = serverJar();
        Path store = dir.resolve("store");
        Path serverErr = dir.resolve("server.err");
        Process server = new ProcessBuilder(java(), "-Xmx256m", "-jar", jar.toString(), "standalone",
                "--port", "0", "--broker-port", "0", "--store", store.toString(),
                "--config", TestStores.smallConfig(dir).toString())
                .redirectError(serverErr.toFile())
                .start();
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8));
            String ready = CompletableFuture.supplyAsync(() -> readLine(stdout))
                    .orTimeout(STEP_SECONDS, TimeUnit.SECONDS).join();
            assertThat(ready).as("stderr: %s", Files.readString(serverErr)).startsWith("Wharf standalone ready:");
            String namesrv = ReadyLine.nameServerAddress(ready).orElseThrow();
            assertThat(namesrv).doesNotEndWith(":0");
            assertThat(store.resolve("abort")).exists();

            Cli.Result sent = runJar(jar, "admin", "-n", namesrv, "send", "--topic", "jar-topic", "--body",
                    "through the jar", "--count", "3");
            assertThat(sent.exitCode()).as(sent.toString()).isZero();
            assertThat(sent.out().lines().filter(l -> l.contains("SEND_OK"))).hasSize(3);
            assertThat(sent.err()).as("admin commands log only warnings").isEmpty();

            Cli.Result consumed = runJar(jar, "admin", "-n", namesrv, "consume", "--topic", "jar-topic",
                    "--group", "jar-group", "--timeout", "2");
            assertThat(consumed.exitCode()).as(consumed.toString()).isZero();
            assertThat(consumed.out()).contains("through the jar", "Consumed 3 messages");

            server.destroy();  // SIGTERM
            assertThat(server.waitFor(STEP_SECONDS, TimeUnit.SECONDS)).as("the server stopped").isTrue();
            assertThat(server.exitValue()).as("ended by the signal, after its shutdown hook").isEqualTo(128 + 15);
        } finally {
            server.destroyForcibly();
        }
        assertThat(store.resolve("abort")).as("a graceful stop removes the abort marker").doesNotExist();
        assertThat(Files.readString(store.resolve("config").resolve("consumerOffset.json"))).contains("jar-group");
        assertThat(Files.readString(serverErr)).contains("Broker broker-a stopped", "NameServer stopped");
    }

    @Test
    void theJarReportsAnUnreachableNameServerOnOneLine() throws Exception {
        Path jar = serverJar();
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Cli.Result r = runJar(jar, "admin", "-n", "127.0.0.1:" + port, "topics");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(r.err().trim()).isEqualTo("Cannot reach the NameServer at 127.0.0.1:" + port
                + ": is it running? (start one with: wharf namesrv)");
    }

    private static Path serverJar() {
        String configured = System.getProperty("wharf.server.jar");
        Path jar = configured != null ? Path.of(configured) : Path.of("target", "wharf-server.jar");
        Assumptions.assumeTrue(Files.isRegularFile(jar), "The server jar " + jar.toAbsolutePath() + " is not built; "
                + "run this test with mvn verify (the package phase builds it).");
        return jar;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs the jar to completion with captured output. */
    private Cli.Result runJar(Path jar, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(java(), "-Xmx128m", "-jar", jar.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(STEP_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("wharf " + String.join(" ", args) + " did not finish; stderr: " + Files.readString(err));
        }
        return new Cli.Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
