package dev.wharf.server.cli;

/**
 * A failure the command line reports as one sentence on stderr, with the exit code it stands for (see
 * {@link ExitCodes}). Thrown by commands for problems they recognise themselves.
 */
public class CliException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    /** Bad input from the user. */
    public static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message);
    }

    /** The operation failed. */
    public static CliException failed(String message) {
        return new CliException(ExitCodes.FAILED, message);
    }
}
