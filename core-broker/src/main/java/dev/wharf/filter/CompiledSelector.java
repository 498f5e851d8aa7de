package dev.wharf.filter;

import java.util.Objects;

/** A parsed selector: the selector text and the root of its immutable evaluator tree. Thread-safe. */
final class CompiledSelector implements Selector {

    private final String expression;
    private final Condition root;

    CompiledSelector(String expression, Condition root) {
        this.expression = Objects.requireNonNull(expression, "expression");
        this.root = Objects.requireNonNull(root, "root");
    }

    /** The selector of a consumer without a selector (null, empty or white space only). */
    static CompiledSelector matchingEverything(String expression) {
        return new CompiledSelector(expression == null ? "" : expression, LogicalNodes.Always.TRUE);
    }

    @Override
    public boolean matches(PropertySource properties) {
        return evaluate(properties) == Truth.TRUE;
    }

    /** The three-valued result; {@link #matches} is {@code evaluate(properties) == TRUE}. */
    Truth evaluate(PropertySource properties) {
        Objects.requireNonNull(properties, "properties");
        return root.test(properties);
    }

    @Override
    public String expression() {
        return expression;
    }

    @Override
    public String toString() {
        return "Selector[" + expression + "]";
    }
}
