package dev.wharf.filter;

/**
 * The comparison operators and the typing rules of selector comparisons:
 * <ul>
 *   <li>NULL on either side gives UNKNOWN;</li>
 *   <li>numbers of any of the six types compare after Java binary numeric promotion (so a long compared with
 *       a float is compared as float, and NaN compares as in Java);</li>
 *   <li>two strings, or two booleans, support only {@code =} and {@code <>};</li>
 *   <li>everything else (unlike types, ordering of strings or booleans) is {@link #INCOMPARABLE}.</li>
 * </ul>
 */
enum ComparisonOperator {
    EQUAL("="),
    NOT_EQUAL("<>"),
    LESS("<"),
    LESS_OR_EQUAL("<="),
    GREATER(">"),
    GREATER_OR_EQUAL(">=");

    /**
     * The result of a comparison the selector rules do not allow. Jakarta Messaging 3.1 (3.8.1.2) says: "If the
     * comparison of non-like type values is attempted, the value of the operation is false", so it is FALSE, not
     * UNKNOWN: {@code NOT (x = 'a')} on a numeric {@code x} matches.
     */
    static final Truth INCOMPARABLE = Truth.FALSE;

    private final String symbol;

    ComparisonOperator(String symbol) {
        this.symbol = symbol;
    }

    String symbol() {
        return symbol;
    }

    /** Compares, reading strings as numbers against numbers when the source's text is untyped. */
    Truth compare(Object left, Object right, PropertySource source) {
        if (source.numericText()) {
            if (left instanceof String text && right instanceof Number) {
                left = Numbers.parse(text);
            } else if (right instanceof String text && left instanceof Number) {
                right = Numbers.parse(text);
            }
            if (left == null || right == null) {
                return left == null && right == null ? Truth.UNKNOWN : INCOMPARABLE;
            }
        }
        return compare(left, right);
    }

    Truth compare(Object left, Object right) {
        if (left == null || right == null) {
            return Truth.UNKNOWN;
        }
        switch (Numbers.promote(left, right)) {
            case Numbers.INT:
            case Numbers.LONG:
                return Truth.of(holds(((Number) left).longValue(), ((Number) right).longValue()));
            case Numbers.FLOAT:
                // Widening float to double is exact, so this is the float comparison Java would do.
                return Truth.of(holds((double) ((Number) left).floatValue(), (double) ((Number) right).floatValue()));
            case Numbers.DOUBLE:
                return Truth.of(holds(((Number) left).doubleValue(), ((Number) right).doubleValue()));
            default:
                break;
        }
        if (this != EQUAL && this != NOT_EQUAL) {
            return INCOMPARABLE;
        }
        if ((left instanceof String && right instanceof String)
                || (left instanceof Boolean && right instanceof Boolean)) {
            return Truth.of(left.equals(right) == (this == EQUAL));
        }
        return INCOMPARABLE;
    }

    private boolean holds(long a, long b) {
        return switch (this) {
            case EQUAL -> a == b;
            case NOT_EQUAL -> a != b;
            case LESS -> a < b;
            case LESS_OR_EQUAL -> a <= b;
            case GREATER -> a > b;
            case GREATER_OR_EQUAL -> a >= b;
        };
    }

    private boolean holds(double a, double b) {
        return switch (this) {
            case EQUAL -> a == b;
            case NOT_EQUAL -> a != b;
            case LESS -> a < b;
            case LESS_OR_EQUAL -> a <= b;
            case GREATER -> a > b;
            case GREATER_OR_EQUAL -> a >= b;
        };
    }
}
