package dev.wharf.server;

import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;

/**
 * A server command ({@code namesrv}, {@code broker}, {@code standalone}) running in this JVM on a thread of its
 * own, stopped through a {@link ManualStop} as SIGTERM would stop the process.
 */
public final class ForegroundRun implements AutoCloseable {

    private final ManualStop stop = new ManualStop();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CompletableFuture<Integer> exit;

    private ForegroundRun(String... args) {
        CommandLine cmd = WharfCli.commandLine(stop);
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        exit = CompletableFuture.supplyAsync(() -> cmd.execute(args), r -> {
            Thread t = new Thread(r, "wharf-test-server");
            t.setDaemon(true);
            t.start();
        });
    }

    /** Starts the command and waits for its ready line (or its exit). */
    public static ForegroundRun start(String... args) {
        ForegroundRun run = new ForegroundRun(args);
        await().atMost(Duration.ofSeconds(30)).until(() -> run.exit.isDone() || !run.readyLine().isEmpty());
        return run;
    }

    /** The ready line, or "" before it was printed. */
    public String readyLine() {
        String text = out.toString();
        return text.startsWith("Wharf ") ? text.lines().findFirst().orElse("") : "";
    }

    public String nameServerAddress() {
        return ReadyLine.nameServerAddress(readyLine()).orElseThrow(() -> new AssertionError(describe()));
    }

    public String brokerAddress() {
        return ReadyLine.brokerAddress(readyLine()).orElseThrow(() -> new AssertionError(describe()));
    }

    public boolean exited() {
        return exit.isDone();
    }

    /** Stops the servers as SIGTERM would and returns the exit code. */
    public int stop() {
        stop.trigger();
        return exit.orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join();
    }

    /** The exit code of a command that ended by itself (a start-up failure). */
    public int exitCode() {
        return exit.orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join();
    }

    public String err() {
        return err.toString();
    }

    public String describe() {
        return "stdout: " + out + "\nstderr: " + err;
    }

    @Override
    public void close() {
        if (!exit.isDone()) {
            stop();
        }
    }
}
