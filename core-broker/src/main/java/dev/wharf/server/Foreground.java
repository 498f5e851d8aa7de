package dev.wharf.server;

import dev.wharf.server.cli.ExitCodes;
import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers a command started, stopped in reverse order of start (the broker before its NameServer, so that it
 * can unregister). Not thread-safe: started on the command's thread, stopped once by the stop signal.
 */
final class Foreground {

    private static final Logger log = LoggerFactory.getLogger(Foreground.class);

    private final Deque<Runnable> stops = new ArrayDeque<>();

    /** Registers how to stop something that just started. */
    void started(String what, Runnable stop) {
        stops.push(() -> {
            try {
                stop.run();
            } catch (RuntimeException e) {
                log.warn("Stopping {} failed: {}", what, e.toString());
            }
        });
    }

    void stopAll() {
        while (!stops.isEmpty()) {
            stops.pop().run();
        }
    }

    /** Prints the ready line, then waits for the stop signal and stops everything. */
    int runUntilStopped(PrintWriter out, String readyLine, StopSignal signal) throws InterruptedException {
        out.println(readyLine);
        out.flush();
        signal.awaitStop(this::stopAll);
        return ExitCodes.OK;
    }
}
