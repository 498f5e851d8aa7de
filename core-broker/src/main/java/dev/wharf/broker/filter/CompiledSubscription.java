package dev.wharf.broker.filter;

import dev.wharf.common.message.Tags;
import dev.wharf.filter.Selector;
import dev.wharf.filter.SelectorParser;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import java.util.HashSet;
import java.util.Set;

/**
 * A subscription expression made ready for filtering: for TAG the set of tag hashes (or "every tag"), for
 * SQL92 the compiled selector. Immutable and thread-safe.
 */
public final class CompiledSubscription {

    private final ExpressionType type;
    private final String expression;
    /** Tag hashes to accept; null = every message. */
    private final Set<Long> tagCodes;
    private final Selector selector;

    private CompiledSubscription(ExpressionType type, String expression, Set<Long> tagCodes, Selector selector) {
        this.type = type;
        this.expression = expression;
        this.tagCodes = tagCodes;
        this.selector = selector;
    }

    /**
     * Compiles an expression.
     *
     * @throws dev.wharf.filter.InvalidSelectorException a bad SQL92 selector (its message names the column)
     */
    public static CompiledSubscription compile(ExpressionType type, String expression) {
        if (type == ExpressionType.SQL92) {
            String sql = expression == null ? "" : expression;
            if (sql.isBlank()) {
                return new CompiledSubscription(ExpressionType.SQL92, sql, null, null);
            }
            return new CompiledSubscription(ExpressionType.SQL92, sql, null, SelectorParser.parse(sql));
        }
        return tags(expression);
    }

    /** A tag expression: "*" (or empty) for every tag, otherwise tags separated by "||". */
    public static CompiledSubscription tags(String expression) {
        String expr = expression == null ? "" : expression.trim();
        if (expr.isEmpty() || expr.equals(Tags.ALL)) {
            return new CompiledSubscription(ExpressionType.TAG, Tags.ALL, null, null);
        }
        Set<Long> codes = new HashSet<>();
        for (String part : expr.split("\\|\\|")) {
            String tag = part.trim();
            if (tag.equals(Tags.ALL)) {
                return new CompiledSubscription(ExpressionType.TAG, expr, null, null);
            }
            if (!tag.isEmpty()) {
                codes.add(Tags.hash(tag));
            }
        }
        return new CompiledSubscription(ExpressionType.TAG, expr, codes.isEmpty() ? null : Set.copyOf(codes), null);
    }

    public ExpressionType type() {
        return type;
    }

    public String expression() {
        return expression;
    }

    /** The compiled selector, or null for tag expressions and empty selectors. */
    public Selector selector() {
        return selector;
    }

    /** Whether a consume-queue unit with this tag hash may match. */
    public boolean matchesTagsCode(long tagsCode) {
        return tagCodes == null || tagCodes.contains(tagsCode);
    }

    /** Whether every message matches (no filtering at all). */
    public boolean matchesAll() {
        return tagCodes == null && selector == null;
    }

    @Override
    public String toString() {
        return type + "(" + expression + ")";
    }
}
