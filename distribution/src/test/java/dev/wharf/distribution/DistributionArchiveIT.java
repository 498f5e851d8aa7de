package dev.wharf.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary archive as an operator gets it: its file list against the expected layout (tar.gz and zip alike),
 * NOTICE against the libraries inside the server jar, then the unpacked tar.gz run for real: bin/wharf standalone
 * with the shipped configuration, messages sent and consumed through bin/wharf admin, bin/wharf status and stop,
 * and the logs in logs/. Runs in the integration-test phase (mvn verify), after the package phase built the
 * archive.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DistributionArchiveIT {

    private static final long STEP_SECONDS = 60;
    private static final Pattern READY_NAMESRV = Pattern.compile("NameServer (?:ready )?at ([^\\s,()]+)");

    private static Path tar;
    private static Path zip;
    private static String base;

    @TempDir
    Path dir;

    @BeforeAll
    static void archives() {
        tar = Path.of(System.getProperty("wharf.dist.tar", "target/missing.tar.gz"));
        zip = Path.of(System.getProperty("wharf.dist.zip", "target/missing.zip"));
        Assumptions.assumeTrue(Files.isRegularFile(tar) && Files.isRegularFile(zip), "The archives " + tar + " and "
                + zip + " are not built; run this test with mvn verify (the package phase builds them).");
        base = "wharf-" + System.getProperty("wharf.version") + "/";
    }

    @Test
    void bothArchivesHoldExactlyTheExpectedLayout() throws Exception {
        Set<String> expected = new TreeSet<>();
        for (String file : List.of("bin/wharf", "bin/wharf.cmd", "conf/broker.conf", "conf/namesrv.conf",
                "conf/logback.xml", "lib/wharf-server.jar", "lib/wharf-console.jar", "systemd/wharf.service", "LICENSE", "NOTICE", "README")) {
            expected.add(base + file);
        }
        Set<String> inZip = new TreeSet<>();
        try (ZipFile z = new ZipFile(zip.toFile())) {
            Collections.list(z.entries()).stream().filter(e -> !e.isDirectory()).map(ZipEntry::getName)
                    .forEach(inZip::add);
        }
        assertThat(inZip).containsExactlyElementsOf(expected);

        Result listing = run(dir, Map.of(), "tar", "-tvzf", tar.toString());
        assertThat(listing.exitCode()).as(listing.toString()).isZero();
        Set<String> inTar = new TreeSet<>();
        for (String line : listing.out().split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (!line.startsWith("d") && fields.length >= 6) {
                String name = fields[fields.length - 1];
                inTar.add(name);
                if (name.startsWith(base + "bin/wharf") && !name.endsWith(".cmd")) {
                    assertThat(fields[0]).as("bin/wharf is executable in the tar.gz").isEqualTo("-rwxr-xr-x");
                }
            }
        }
        assertThat(inTar).containsExactlyElementsOf(expected);
    }

    @Test
    void noticeNamesEveryLibraryInsideTheServerJar() throws Exception {
        Path home = unpack();
        String notice = Files.readString(home.resolve("NOTICE"));
        List<String> bundled = new ArrayList<>();
        try (ZipFile jar = new ZipFile(home.resolve("lib/wharf-server.jar").toFile())) {
            Pattern pom = Pattern.compile("META-INF/maven/([^/]+)/([^/]+)/pom\\.properties");
            for (ZipEntry e : Collections.list(jar.entries())) {
                Matcher m = pom.matcher(e.getName());
                if (m.matches() && !m.group(1).equals("dev.wharf")) {
                    bundled.add(m.group(1) + ":" + m.group(2));
                }
            }
            // picocli's jar carries no pom.properties; its classes are the evidence
            if (jar.getEntry("picocli/CommandLine.class") != null) {
                bundled.add("info.picocli:picocli");
            }
        }
        assertThat(bundled).as("libraries in lib/wharf-server.jar").isNotEmpty();
        assertThat(bundled).allSatisfy(library -> assertThat(notice)
                .as("NOTICE (distribution/src/dist/NOTICE) names the bundled library %s and its license", library)
                .containsPattern("(?m)^\\s+" + Pattern.quote(library) + "\\s+\\S"));
        List<String> consoleLibraries = consoleLibraries(home.resolve("lib/wharf-console.jar"));
        assertThat(consoleLibraries).as("libraries in lib/wharf-console.jar").contains(
                ":spring-webmvc", "org.webjars.npm:chart.js");
        assertThat(consoleLibraries).allSatisfy(library -> assertThat(notice)
                .as("NOTICE (distribution/src/dist/NOTICE) names the console's library %s and its license", library)
                .containsPattern("(?m)^\\s+" + (library.startsWith(":") ? "[^\\s:]+" : "")
                        + Pattern.quote(library) + "\\s+\\S"));
        assertThat(Files.readString(home.resolve("LICENSE"))).contains("Apache License", "Version 2.0");
        assertThat(Files.readString(home.resolve("README"))).as("filtered with the version")
                .startsWith("Wharf " + System.getProperty("wharf.version"));
        assertThat(notice).startsWith("Wharf " + System.getProperty("wharf.version"));
    }

    @Test
    void theUnpackedArchiveRunsSendsConsumesAndStops() throws Exception {
        Path home = unpack();
        Path store = dir.resolve("store");
        Result version = wharf(home, "--version");
        assertThat(version.exitCode()).as(version.toString()).isZero();
        assertThat(version.out()).startsWith("Wharf " + System.getProperty("wharf.version"))
                .containsPattern("commit \\S+, built \\S+");

        Path serverErr = dir.resolve("server.err");
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/wharf").toString(), "standalone", "--port", "0",
                "--broker-port", "0", "--store", store.toString()).redirectError(serverErr.toFile());
        environment(pb);
        Process server = pb.start();
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8));
            String ready = CompletableFuture.supplyAsync(() -> readLine(stdout))
                    .orTimeout(STEP_SECONDS, TimeUnit.SECONDS).join();
            assertThat(ready).as("stderr: %s", Files.readString(serverErr)).startsWith("Wharf standalone ready:");
            Matcher m = READY_NAMESRV.matcher(ready);
            assertThat(m.find()).isTrue();
            String namesrv = m.group(1);

            assertThat(home.resolve("run/standalone.pid")).content().isEqualToIgnoringNewLines(
                    String.valueOf(server.pid()));
            Result status = wharf(home, "status");
            assertThat(status.exitCode()).as(status.toString()).isZero();
            assertThat(status.out()).contains("standalone is running (PID " + server.pid() + ")");

            Result sent = wharf(home, "admin", "-n", namesrv, "send", "--topic", "dist-topic", "--body",
                    "from the archive", "--count", "3");
            assertThat(sent.exitCode()).as(sent.toString()).isZero();
            assertThat(sent.out().lines().filter(l -> l.contains("SEND_OK"))).hasSize(3);
            Result consumed = wharf(home, "admin", "-n", namesrv, "consume", "--topic", "dist-topic", "--group",
                    "dist-group", "--timeout", "3");
            assertThat(consumed.exitCode()).as(consumed.toString()).isZero();
            assertThat(consumed.out()).contains("from the archive", "Consumed 3 messages");

            Result stopped = wharf(home, "stop");
            assertThat(stopped.exitCode()).as(stopped.toString()).isZero();
            assertThat(stopped.out()).contains("Stopped standalone.");
            assertThat(server.waitFor(STEP_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(server.exitValue()).as("ended by SIGTERM after its shutdown hook").isEqualTo(128 + 15);
        } finally {
            server.destroyForcibly();
        }
        assertThat(home.resolve("run/standalone.pid")).doesNotExist();
        Result after = wharf(home, "status");
        assertThat(after.exitCode()).as(after.toString()).isEqualTo(3);

        assertThat(store.resolve("abort")).as("a graceful stop").doesNotExist();
        assertThat(store.resolve("format")).content().contains("version=1");
        String log = Files.readString(home.resolve("logs/standalone.log"));
        assertThat(log).contains("Broker broker-a of cluster DefaultCluster started", "Broker broker-a stopped",
                "NameServer stopped");
        assertThat(home.resolve("logs/gc-standalone.log")).isNotEmptyFile();
        assertThat(Files.readString(serverErr)).as("info lines go to the log file, not the terminal")
                .doesNotContain("Broker broker-a stopped");
    }

    @Test
    void theNameServerReadsItsShippedConfigurationAndStatusNamesWhatRuns() throws Exception {
        Path home = unpack();
        // the shipped namesrv.conf binds as it is; the flag then moves the port
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/wharf").toString(), "namesrv", "--port", "0")
                .redirectError(dir.resolve("namesrv.err").toFile());
        environment(pb);
        Process namesrv = pb.start();
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(namesrv.getInputStream(),
                    StandardCharsets.UTF_8));
            String ready = CompletableFuture.supplyAsync(() -> readLine(stdout))
                    .orTimeout(STEP_SECONDS, TimeUnit.SECONDS).join();
            assertThat(ready).as("stderr: %s", Files.readString(dir.resolve("namesrv.err")))
                    .startsWith("Wharf NameServer ready at 127.0.0.1:").doesNotEndWith(":9876");
            Result again = wharf(home, "namesrv", "--port", "0");
            assertThat(again.exitCode()).as("a second namesrv from the same installation").isEqualTo(1);
            assertThat(again.err()).contains("namesrv is already running", "wharf stop namesrv");
            Result status = wharf(home, "status", "namesrv", "broker");
            assertThat(status.out()).contains("namesrv is running", "broker is not running");
            Result stopped = wharf(home, "stop", "namesrv");
            assertThat(stopped.exitCode()).as(stopped.toString()).isZero();
            assertThat(namesrv.waitFor(STEP_SECONDS, TimeUnit.SECONDS)).isTrue();
        } finally {
            namesrv.destroyForcibly();
        }
        assertThat(Files.readString(home.resolve("logs/namesrv.log"))).contains("NameServer stopped");
    }

    @Test
    void aStalePidFileLeftByACrashIsNoticedAndRemoved() throws Exception {
        Path home = unpack();
        // the PID of a process that has ended: what a killed server leaves behind
        Process ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(STEP_SECONDS, TimeUnit.SECONDS)).isTrue();
        Path pidFile = home.resolve("run/broker.pid");
        Files.createDirectories(pidFile.getParent());
        Files.writeString(pidFile, ended.pid() + "\n");

        Result status = wharf(home, "status", "broker");
        assertThat(status.exitCode()).as(status.toString()).isEqualTo(3);
        assertThat(status.out()).contains("broker is not running (removed the stale PID file");
        assertThat(pidFile).doesNotExist();

        Result stop = wharf(home, "stop");
        assertThat(stop.exitCode()).as("stopping nothing is not an error").isZero();
        assertThat(stop.out()).contains("No Wharf server of");
    }

    @Test
    void theConsoleJarIsFoundAndRunByBinWharf() throws Exception {
        Path home = unpack();
        Result r = wharf(home, "console");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("--namesrv is required", "usage: wharf console --namesrv HOST:PORT");
    }

    /**
     * The libraries of the console's Spring Boot jar (BOOT-INF/lib/*.jar) as groupId:artifactId, from each nested
     * jar's pom.properties; a jar without one is named by its file name (the artifact) alone, as ":artifact".
     */
    private static List<String> consoleLibraries(Path jar) throws IOException {
        List<String> out = new ArrayList<>();
        Pattern pom = Pattern.compile("META-INF/maven/([^/]+)/([^/]+)/pom\\.properties");
        try (ZipFile outer = new ZipFile(jar.toFile())) {
            for (ZipEntry e : Collections.list(outer.entries())) {
                if (!e.getName().startsWith("BOOT-INF/lib/") || !e.getName().endsWith(".jar")) {
                    continue;
                }
                String found = null;
                try (ZipInputStream inner = new ZipInputStream(outer.getInputStream(e))) {
                    for (ZipEntry i = inner.getNextEntry(); i != null && found == null; i = inner.getNextEntry()) {
                        Matcher m = pom.matcher(i.getName());
                        if (m.matches()) {
                            found = m.group(1) + ":" + m.group(2);
                        }
                    }
                }
                if (found == null) {
                    String file = e.getName().substring("BOOT-INF/lib/".length());
                    found = ":" + file.replaceFirst("-\\d.*$", "");
                }
                if (!found.startsWith("dev.wharf:")) {
                    out.add(found);
                }
            }
        }
        return out;
    }

    @Test
    void anOldJavaIsRefusedWithAClearMessage() throws Exception {
        Path home = unpack();
        // a fake JAVA_HOME whose java reports Java 11
        Path fakeJava = dir.resolve("old-java/bin/java");
        Files.createDirectories(fakeJava.getParent());
        Files.writeString(fakeJava, "#!/bin/sh\necho 'openjdk version \"11.0.22\" 2024-01-16' >&2\n");
        fakeJava.toFile().setExecutable(true);
        Result r = run(dir, Map.of("JAVA_HOME", dir.resolve("old-java").toString()),
                home.resolve("bin/wharf").toString(), "standalone");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("Wharf needs Java 17 or newer", "11.0.22", "JAVA_HOME");
    }

    /** Unpacks the tar.gz (which keeps bin/wharf executable) into the test's folder. */
    private Path unpack() throws Exception {
        Result r = run(dir, Map.of(), "tar", "-xzf", tar.toString(), "-C", dir.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return dir.resolve(base);
    }

    private Result wharf(Path home, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/wharf").toString());
        command.addAll(List.of(args));
        return run(dir, Map.of(), command.toArray(String[]::new));
    }

    /** The environment of every bin/wharf run: this test's Java, small heaps, nothing inherited from WHARF_*. */
    private static void environment(ProcessBuilder pb, Map<String, String> extra) {
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("WHARF_"));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("WHARF_HEAP", "128m");
        env.put("JAVA_OPTS", "-Xmx256m -Xss512k");
        env.put("WHARF_STOP_TIMEOUT", String.valueOf(STEP_SECONDS));
        env.putAll(extra);
    }

    private static void environment(ProcessBuilder pb) {
        environment(pb, Map.of());
    }

    private static Result run(Path workDir, Map<String, String> extraEnv, String... command) throws Exception {
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        environment(pb, extraEnv);
        Process p = pb.start();
        if (!p.waitFor(STEP_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + Duration.ofSeconds(
                    STEP_SECONDS) + "; stderr: " + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }
}
