package dev.wharf.filter;

import java.util.Arrays;
import java.util.Objects;

/** The value-producing nodes: literals, identifiers and arithmetic. All are immutable. */
final class ValueNodes {

    private ValueNodes() {
    }

    /** A string, numeric or boolean literal; the value is boxed once, at parse time. */
    record Literal(Object constant) implements Operand {

        @Override
        public Object value(PropertySource properties) {
            return constant;
        }
    }

    /** An identifier: whatever the property source returns for the name, {@code null} when absent. */
    record Property(String name) implements Operand {

        Property {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public Object value(PropertySource properties) {
            return properties.get(name);
        }
    }

    /** Unary minus; UNKNOWN for NULL or a non-number. */
    record Negate(Operand operand) implements Operand {

        @Override
        public Object value(PropertySource properties) {
            return Numbers.negate(operand.value(properties));
        }
    }

    /** Unary plus; it does nothing to a number but still makes a non-number UNKNOWN. */
    record UnaryPlus(Operand operand) implements Operand {

        @Override
        public Object value(PropertySource properties) {
            return Numbers.identity(operand.value(properties));
        }
    }

    /**
     * A left-associative chain of operators of one precedence level, e.g. {@code a - b + c}. It is one node
     * with a loop, not a left-deep tree, so a long chain cannot exhaust the stack during evaluation.
     */
    static final class ArithmeticChain implements Operand {

        private final Operand first;
        private final ArithmeticOperator[] operators;
        private final Operand[] operands;

        ArithmeticChain(Operand first, ArithmeticOperator[] operators, Operand[] operands) {
            if (operators.length != operands.length || operators.length == 0) {
                throw new IllegalArgumentException("one operator per operand after the first is required");
            }
            this.first = first;
            this.operators = operators.clone();
            this.operands = operands.clone();
        }

        @Override
        public Object value(PropertySource properties) {
            Object result = first.value(properties);
            for (int i = 0; i < operators.length && result != null; i++) {
                result = operators[i].apply(result, operands[i].value(properties));
            }
            return result;
        }

        @Override
        public String toString() {
            return "ArithmeticChain[" + first + ", " + Arrays.toString(operators) + ", " + Arrays.toString(operands)
                    + "]";
        }
    }
}
