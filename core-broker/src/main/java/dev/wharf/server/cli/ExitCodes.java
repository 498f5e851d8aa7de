package dev.wharf.server.cli;

/** Exit codes of the {@code wharf} command, listed in its {@code --help}. */
public final class ExitCodes {

    /** The command did what it was asked. */
    public static final int OK = 0;
    /** The command ran but failed: a server refused, something was not found, a server could not start. */
    public static final int FAILED = 1;
    /** The command line or an input value is wrong (the same code picocli uses for usage errors). */
    public static final int USAGE = 2;
    /** The NameServer or a broker did not answer. */
    public static final int UNREACHABLE = 3;

    private ExitCodes() {
    }
}
