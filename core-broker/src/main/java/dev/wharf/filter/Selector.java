package dev.wharf.filter;

/**
 * A compiled message selector. Obtain one from {@link SelectorParser#parse(String)}.
 *
 * <p>Implementations are immutable and thread-safe: one instance may be evaluated by many threads at once.
 */
public interface Selector {

    /**
     * Evaluates the selector against one message's properties.
     *
     * @param properties the message's properties and headers; must not be {@code null}
     * @return {@code true} only when the selector evaluates to TRUE; FALSE and UNKNOWN both mean "no match"
     */
    boolean matches(PropertySource properties);

    /** The selector text as given to the parser; an empty string when no selector was given. */
    String expression();
}
