package dev.wharf.benchmarks.soak;

import dev.wharf.server.ReadyLine;
import dev.wharf.server.WharfMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The broker under test: {@code wharf standalone} (NameServer and broker) in a child JVM on the soak's store,
 * always on the same ports, so that clients reconnect by themselves after each restart. Stopped with SIGTERM
 * (a clean stop) or SIGKILL ({@code kill -9}); its output is appended to one log file across restarts.
 */
// close() waits for a process or threads to end; an interrupt there is for the caller to see
@SuppressWarnings("try")
final class SoakBroker implements AutoCloseable {

    private static final long START_SECONDS = 120;

    private final Path store;
    private final Path config;
    private final Path log;
    private final String flush;
    private final String jvmOptions;
    private final int nameServerPort;
    private final int brokerPort;
    private Process process;
    private int starts;

    SoakBroker(Path store, Path config, Path log, String flush, String jvmOptions, int nameServerPort,
               int brokerPort) {
        this.store = store;
        this.config = config;
        this.log = log;
        this.flush = flush;
        this.jvmOptions = jvmOptions;
        this.nameServerPort = nameServerPort;
        this.brokerPort = brokerPort;
    }

    /** A port nothing listens on now (the kernel's choice for port 0). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    String nameServer() {
        return "127.0.0.1:" + nameServerPort;
    }

    /** Times the broker was started. */
    int starts() {
        return starts;
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * Starts the broker and waits for its ready line.
     *
     * @throws IOException when it does not come up (a store it refuses to open, for one): names its log
     */
    synchronized void start() throws IOException, InterruptedException {
        if (isAlive()) {
            throw new IllegalStateException("the broker is already running");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Arrays.stream(jvmOptions.trim().split("\\s+")).filter(s -> !s.isEmpty()).forEach(command::add);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), WharfMain.class.getName(), "standalone",
                "--port", Integer.toString(nameServerPort), "--broker-port", Integer.toString(brokerPort),
                "--bind", "127.0.0.1", "--store", store.toString(), "--flush", flush, "--config", config.toString()));
        process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        starts++;
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        try {
            // the ready line, skipping anything printed before it (a logging library's own status lines)
            line = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String l = out.readLine(); l != null; l = out.readLine()) {
                        if (ReadyLine.nameServerAddress(l).isPresent()) {
                            return l;
                        }
                    }
                    return null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(START_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            line = null;
        }
        if (line == null || ReadyLine.nameServerAddress(line).isEmpty()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
            throw new IOException("The broker did not start (start " + starts + ", ready line: " + line
                    + "); see its log " + log);
        }
        // keep reading its stdout so that it never blocks on a full pipe
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // nothing else is printed on stdout
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "soak-broker-stdout");
        drain.setDaemon(true);
        drain.start();
    }

    /** {@code kill -9}: the process gets no chance to flush or write its checkpoint. */
    synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(60, TimeUnit.SECONDS);
        }
    }

    /** SIGTERM and wait: a clean stop (falls back to SIGKILL after two minutes). */
    synchronized void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
