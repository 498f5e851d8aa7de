package dev.wharf.benchmarks.load;

import dev.wharf.server.ReadyLine;
import dev.wharf.server.WharfMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A standalone server (NameServer and broker) in a child JVM on loopback, started from the class path of this
 * tool on free ports with a fresh store, and stopped with SIGTERM (a graceful stop) when closed; the store is
 * deleted afterwards. Measuring against another process keeps the server's and the clients' garbage collectors and
 * threads apart, as in production.
 */
// close() waits for a process or threads to end; an interrupt there is for the caller to see
@SuppressWarnings("try")
final class ChildServer implements AutoCloseable {

    private static final long START_SECONDS = 60;

    private final Process process;
    private final Path store;
    private final Path log;
    private final String nameServer;

    private ChildServer(Process process, Path store, Path log, String nameServer) {
        this.process = process;
        this.store = store;
        this.log = log;
        this.nameServer = nameServer;
    }

    /**
     * @param flush     "sync" or "async"
     * @param storeRoot folder the store is created in (a temporary folder inside it)
     * @param jvmOptions options of the child JVM, separated by spaces
     */
    static ChildServer start(String flush, Path storeRoot, String jvmOptions) throws IOException, InterruptedException {
        Files.createDirectories(storeRoot);
        Path store = Files.createTempDirectory(storeRoot, "wharf-load-" + flush + "-");
        Path log = store.resolveSibling(store.getFileName() + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Arrays.stream(jvmOptions.trim().split("\\s+")).filter(s -> !s.isEmpty()).forEach(command::add);
        command.addAll(List.of("-Dwharf.log.level=WARN", "-cp", classPath(), WharfMain.class.getName(), "standalone",
                "--port", "0", "--broker-port", "0", "--store", store.toString(), "--flush", flush));
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        try {
            line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(START_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            line = null;
        }
        String nameServer = line == null ? null : ReadyLine.nameServerAddress(line).orElse(null);
        if (nameServer == null) {
            process.destroyForcibly();
            throw new IOException("The server did not start (ready line: " + line + "); its log: " + log);
        }
        return new ChildServer(process, store, log, nameServer);
    }

    /** The class path holding the server: this tool's own jar (or classes and dependencies). */
    private static String classPath() throws IOException {
        String classPath = System.getProperty("java.class.path");
        Path server;
        try {
            server = Path.of(WharfMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot locate the server classes: " + e.getMessage(), e);
        }
        boolean onClassPath = Arrays.stream(classPath.split(java.io.File.pathSeparator))
                .anyMatch(entry -> !entry.isEmpty() && Path.of(entry).toAbsolutePath().equals(server.toAbsolutePath()));
        if (!onClassPath) {
            throw new IOException("--embedded starts the server from this tool's class path, which does not hold it "
                    + "here; run the tool as java -jar benchmarks/target/wharf-benchmarks.jar.");
        }
        return classPath;
    }

    String nameServer() {
        return nameServer;
    }

    Path store() {
        return store;
    }

    /** Stops the server with SIGTERM, waits for it, and deletes its store and log. */
    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(store)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
        Files.deleteIfExists(log);
    }
}
