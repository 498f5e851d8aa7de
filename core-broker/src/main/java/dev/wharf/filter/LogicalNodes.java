package dev.wharf.filter;

import java.util.Arrays;

/**
 * The logical nodes: AND, OR, NOT, and an identifier or literal used as a condition. AND and OR take all the
 * operands of a chain ({@code a AND b AND c}) in one node, so long generated selectors stay shallow.
 */
final class LogicalNodes {

    private LogicalNodes() {
    }

    /** Three-valued AND; stops at the first FALSE, which decides the result whatever follows. */
    static final class And implements Condition {

        private final Condition[] operands;

        And(Condition[] operands) {
            this.operands = operands.clone();
        }

        @Override
        public Truth test(PropertySource properties) {
            Truth result = Truth.TRUE;
            for (Condition operand : operands) {
                result = result.and(operand.test(properties));
                if (result == Truth.FALSE) {
                    return Truth.FALSE;
                }
            }
            return result;
        }

        @Override
        public String toString() {
            return "And" + Arrays.toString(operands);
        }
    }

    /** Three-valued OR; stops at the first TRUE, which decides the result whatever follows. */
    static final class Or implements Condition {

        private final Condition[] operands;

        Or(Condition[] operands) {
            this.operands = operands.clone();
        }

        @Override
        public Truth test(PropertySource properties) {
            Truth result = Truth.FALSE;
            for (Condition operand : operands) {
                result = result.or(operand.test(properties));
                if (result == Truth.TRUE) {
                    return Truth.TRUE;
                }
            }
            return result;
        }

        @Override
        public String toString() {
            return "Or" + Arrays.toString(operands);
        }
    }

    record Not(Condition operand) implements Condition {

        @Override
        public Truth test(PropertySource properties) {
            return operand.test(properties).not();
        }
    }

    /**
     * A value used where a condition is expected: a bare identifier ({@code active}) or a boolean literal.
     * Only a {@link Boolean} value is TRUE or FALSE; NULL and any other type are UNKNOWN.
     */
    record BooleanValue(Operand operand) implements Condition {

        @Override
        public Truth test(PropertySource properties) {
            return Truth.ofValue(operand.value(properties));
        }
    }

    /** The condition of an empty selector. */
    enum Always implements Condition {
        TRUE;

        @Override
        public Truth test(PropertySource properties) {
            return Truth.TRUE;
        }
    }
}
