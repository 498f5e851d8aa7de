package dev.wharf.server;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the {@code wharf} command line in this JVM with captured stdout and stderr. */
public final class Cli {

    /** What one run printed and returned. */
    public record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private Cli() {
    }

    /** Runs a command that does not start servers. */
    public static Result run(String... args) {
        return run(stop -> {
            throw new IllegalStateException("this run was not meant to start a server");
        }, args);
    }

    public static Result run(StopSignal stopSignal, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = WharfCli.commandLine(stopSignal);
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Result(code, out.toString(), err.toString());
    }
}
