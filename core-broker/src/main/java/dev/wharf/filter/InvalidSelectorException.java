package dev.wharf.filter;

/**
 * Thrown when a selector is not valid: a syntax error, a malformed literal, or an expression that can never
 * be a condition (such as {@code price + 1}). The message names the 1-based column and what was found versus
 * what was expected, for example
 * {@code Invalid selector "price > > 3" at column 9: expected a value but found '>'}.
 *
 * <p>The JMS layer wraps this into {@code jakarta.jms.InvalidSelectorException}.
 */
public class InvalidSelectorException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String expression;
    private final int column;
    private final String reason;

    /**
     * @param expression the selector text
     * @param column 1-based column where the problem starts ({@code expression.length() + 1} for "at the end")
     * @param reason what was wrong, without the "Invalid selector ..." prefix
     */
    public InvalidSelectorException(String expression, int column, String reason) {
        super("Invalid selector \"" + expression + "\" at column " + column + ": " + reason);
        this.expression = expression;
        this.column = column;
        this.reason = reason;
    }

    /** 1-based column of the offending character or token, counted in UTF-16 chars of the selector text. */
    public int column() {
        return column;
    }

    /** The selector text that was rejected. */
    public String expression() {
        return expression;
    }

    /** The problem on its own, without the selector text and column. */
    public String reason() {
        return reason;
    }
}
