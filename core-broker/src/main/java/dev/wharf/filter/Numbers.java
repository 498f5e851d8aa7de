package dev.wharf.filter;

/**
 * Java binary numeric promotion for the six property number types. A "rank" names the type an operation is
 * carried out in: Byte, Short and Integer promote to int; with a Long to long; with a Float to float; with a
 * Double to double. Any other object has no rank, so arithmetic and ordering on it are UNKNOWN.
 */
final class Numbers {

    static final int NOT_A_NUMBER = -1;
    static final int INT = 0;
    static final int LONG = 1;
    static final int FLOAT = 2;
    static final int DOUBLE = 3;

    private Numbers() {
    }

    static int rank(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return INT;
        }
        if (value instanceof Long) {
            return LONG;
        }
        if (value instanceof Double) {
            return DOUBLE;
        }
        if (value instanceof Float) {
            return FLOAT;
        }
        return NOT_A_NUMBER;
    }

    /** The rank a binary operation on the two operands is carried out in, or {@link #NOT_A_NUMBER}. */
    /**
     * The number a piece of untyped text reads as: a Long for a whole number in long range, a Double for any other
     * decimal or exponent form, null when it reads as no number (including NaN and Infinity spelled out).
     */
    static Number parse(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException notWhole) {
            char last = t.charAt(t.length() - 1);
            if (!Character.isDigit(last) && last != '.') {
                return null; // Double.parseDouble accepts "1d", "NaN", "Infinity": text that is not a plain number
            }
            try {
                return Double.parseDouble(t);
            } catch (NumberFormatException notDecimal) {
                return null;
            }
        }
    }

    static int promote(Object left, Object right) {
        int l = rank(left);
        if (l == NOT_A_NUMBER) {
            return NOT_A_NUMBER;
        }
        int r = rank(right);
        if (r == NOT_A_NUMBER) {
            return NOT_A_NUMBER;
        }
        return Math.max(l, r);
    }

    /** Unary minus with Java semantics (int and long wrap around); {@code null} when not a number. */
    static Object negate(Object value) {
        return switch (rank(value)) {
            case INT -> -((Number) value).intValue();
            case LONG -> -((Number) value).longValue();
            case FLOAT -> -((Number) value).floatValue();
            case DOUBLE -> -((Number) value).doubleValue();
            default -> null;
        };
    }

    /** Unary plus: the number itself, or {@code null} when the operand is not a number. */
    static Object identity(Object value) {
        return rank(value) == NOT_A_NUMBER ? null : value;
    }
}
