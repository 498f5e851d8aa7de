package dev.wharf.filter;

/**
 * The binary arithmetic operators. Operands are promoted as in Java, so int arithmetic wraps around on
 * overflow and floating-point division by zero gives an infinity or NaN. Integer division by zero, and any
 * operand that is NULL or not a number, give {@code null} (UNKNOWN) rather than an exception, because a
 * broker must never fail on a message's property values.
 */
enum ArithmeticOperator {
    ADD("+"),
    SUBTRACT("-"),
    MULTIPLY("*"),
    DIVIDE("/");

    private final String symbol;

    ArithmeticOperator(String symbol) {
        this.symbol = symbol;
    }

    String symbol() {
        return symbol;
    }

    Object apply(Object left, Object right) {
        switch (Numbers.promote(left, right)) {
            case Numbers.INT: {
                int a = ((Number) left).intValue();
                int b = ((Number) right).intValue();
                return this == DIVIDE && b == 0 ? null : applyInt(a, b);
            }
            case Numbers.LONG: {
                long a = ((Number) left).longValue();
                long b = ((Number) right).longValue();
                return this == DIVIDE && b == 0 ? null : applyLong(a, b);
            }
            case Numbers.FLOAT:
                return applyFloat(((Number) left).floatValue(), ((Number) right).floatValue());
            case Numbers.DOUBLE:
                return applyDouble(((Number) left).doubleValue(), ((Number) right).doubleValue());
            default:
                return null;
        }
    }

    private Integer applyInt(int a, int b) {
        return switch (this) {
            case ADD -> a + b;
            case SUBTRACT -> a - b;
            case MULTIPLY -> a * b;
            case DIVIDE -> a / b;
        };
    }

    private Long applyLong(long a, long b) {
        return switch (this) {
            case ADD -> a + b;
            case SUBTRACT -> a - b;
            case MULTIPLY -> a * b;
            case DIVIDE -> a / b;
        };
    }

    private Float applyFloat(float a, float b) {
        return switch (this) {
            case ADD -> a + b;
            case SUBTRACT -> a - b;
            case MULTIPLY -> a * b;
            case DIVIDE -> a / b;
        };
    }

    private Double applyDouble(double a, double b) {
        return switch (this) {
            case ADD -> a + b;
            case SUBTRACT -> a - b;
            case MULTIPLY -> a * b;
            case DIVIDE -> a / b;
        };
    }
}
