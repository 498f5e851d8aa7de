package dev.wharf.server;

import dev.wharf.server.cli.ExitCodes;

/**
 * Entry point of the server jar: {@code java -jar wharf-server.jar <command> ...}. See {@link WharfCli} for the
 * commands. Exits with the command's {@link ExitCodes exit code}.
 */
public final class WharfMain {

    private WharfMain() {
    }

    public static void main(String[] args) {
        // before anything creates a logger: the logging configuration is read once, at the first logger
        ServerLogging.configure(args);
        int exitCode = WharfCli.commandLine(StopSignal.jvmShutdown()).execute(args);
        System.exit(exitCode);
    }
}
