package dev.wharf.server;

import dev.wharf.client.ClientException;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure of a command into one line on stderr and an exit code: usage errors name the option and
 * point at {@code --help} (instead of picocli's full usage text), failures say what went wrong. The stack trace
 * goes to the log at DEBUG (run with {@code -Dwharf.log.level=DEBUG} to see it).
 */
final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ErrorReporter.class);

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        StringBuilder line = new StringBuilder(oneLine(ex.getMessage()));
        if (ex instanceof UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            line.append(" Did you mean ").append(String.join(" or ", unmatched.getSuggestions())).append('?');
        }
        line.append(" (see: ").append(cmd.getCommandSpec().qualifiedName()).append(" --help)");
        cmd.getErr().println(line);
        cmd.getErr().flush();
        return ExitCodes.USAGE;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        log.debug("{} failed", cmd.getCommandSpec().qualifiedName(), ex);
        Failure failure = describe(ex);
        cmd.getErr().println(oneLine(failure.message()));
        cmd.getErr().flush();
        return failure.exitCode();
    }

    record Failure(int exitCode, String message) {
    }

    static Failure describe(Throwable ex) {
        if (ex instanceof CliException e) {
            return new Failure(e.exitCode(), e.getMessage());
        }
        if (ex instanceof ClientException e) {
            return new Failure(exitCodeOf(e), e.getMessage());
        }
        if (ex instanceof IllegalArgumentException e) {
            return new Failure(ExitCodes.USAGE, messageOf(e));
        }
        if (ex instanceof NoSuchFileException e) {
            return new Failure(ExitCodes.FAILED, e.getReason() != null ? e.getReason()
                    : "No such file: " + e.getFile());
        }
        if (ex instanceof AccessDeniedException e) {
            return new Failure(ExitCodes.FAILED, "Permission denied: " + e.getFile()
                    + "; run as a user who may read and write it, or choose another path.");
        }
        if (ex instanceof FileSystemException e) {
            return new Failure(ExitCodes.FAILED, e.getMessage());
        }
        if (ex instanceof IOException e) {
            return new Failure(ExitCodes.FAILED, messageOf(e));
        }
        if (ex instanceof InterruptedException) {
            return new Failure(ExitCodes.FAILED, "Interrupted before the command finished.");
        }
        return new Failure(ExitCodes.FAILED, messageOf(ex));
    }

    private static int exitCodeOf(ClientException e) {
        if (e.isNoResponse()) {
            return ExitCodes.UNREACHABLE;
        }
        // the server (or the client for it) judged the request itself invalid: bad input, not a failure
        return e.responseCode() == ResponseCode.MESSAGE_ILLEGAL || e.responseCode() == ResponseCode.REQUEST_HEADER_INVALID
                ? ExitCodes.USAGE : ExitCodes.FAILED;
    }

    private static String messageOf(Throwable ex) {
        String message = ex.getMessage();
        return message == null || message.isBlank() ? ex.getClass().getSimpleName() : message;
    }

    /** Error messages of lower layers can span lines; a command line error is one line. */
    static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
