package dev.wharf.console;

/**
 * The console will not start with this configuration: {@code getMessage()} says what is wrong, {@link #action()}
 * what to do. {@link StartupRefusalAnalyzer} prints the two without a stack trace.
 */
public class StartupRefusal extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String problem;
    private final String action;

    public StartupRefusal(String problem, String action) {
        super(problem + " " + action);
        this.problem = problem;
        this.action = action;
    }

    /** What is wrong. */
    public String problem() {
        return problem;
    }

    /** What to do about it. */
    public String action() {
        return action;
    }
}
