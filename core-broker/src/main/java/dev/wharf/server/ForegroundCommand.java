package dev.wharf.server;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A command that runs servers in the foreground: it starts them, prints one ready line, waits for the stop signal
 * (Ctrl-C, SIGTERM) and stops them in reverse order of start. When a start fails half-way, or the wait is
 * interrupted, what already runs is stopped before the error is reported.
 */
abstract class ForegroundCommand implements Callable<Integer> {

    @ParentCommand
    WharfCli root;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() throws Exception {
        Foreground foreground = new Foreground();
        try {
            String readyLine = start(foreground);
            return foreground.runUntilStopped(spec.commandLine().getOut(), readyLine, root.stopSignal());
        } catch (Exception e) {
            foreground.stopAll();
            throw e;
        }
    }

    /**
     * Checks the settings (so that a bad file or flag is reported before anything listens), starts the servers,
     * registering each with {@code foreground} as it starts, and returns the ready line.
     */
    abstract String start(Foreground foreground) throws Exception;
}
