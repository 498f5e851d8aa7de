package dev.wharf.filter;

import java.util.Objects;
import java.util.Set;

/** The comparison predicates: {@code = <> < <= > >=}, BETWEEN, IN, LIKE and IS NULL. All are immutable. */
final class PredicateNodes {

    private PredicateNodes() {
    }

    record Compare(Operand left, ComparisonOperator operator, Operand right) implements Condition {

        @Override
        public Truth test(PropertySource properties) {
            Object l = left.value(properties);
            if (l == null) {
                return Truth.UNKNOWN;
            }
            return operator.compare(l, right.value(properties), properties);
        }
    }

    /**
     * {@code x BETWEEN low AND high}, defined as {@code low <= x AND x <= high}; {@code x NOT BETWEEN low AND
     * high}, defined as {@code x < low OR x > high}. The tested value is evaluated once.
     */
    record Between(Operand value, Operand low, Operand high, boolean negated) implements Condition {

        @Override
        public Truth test(PropertySource properties) {
            Object x = value.value(properties);
            if (x == null) {
                return Truth.UNKNOWN;
            }
            if (negated) {
                Truth below = ComparisonOperator.LESS.compare(x, low.value(properties), properties);
                return below == Truth.TRUE
                        ? Truth.TRUE
                        : below.or(ComparisonOperator.GREATER.compare(x, high.value(properties), properties));
            }
            Truth aboveLow = ComparisonOperator.GREATER_OR_EQUAL.compare(x, low.value(properties), properties);
            return aboveLow == Truth.FALSE
                    ? Truth.FALSE
                    : aboveLow.and(ComparisonOperator.LESS_OR_EQUAL.compare(x, high.value(properties), properties));
        }
    }

    /**
     * {@code x [NOT] IN ('a', 'b', ...)}, equivalent to {@code [NOT] (x = 'a' OR x = 'b' ...)}: UNKNOWN when
     * {@code x} is NULL, FALSE (as for any comparison of unlike types) when {@code x} is not a string.
     */
    record In(Operand value, Set<String> candidates, boolean negated) implements Condition {

        In {
            candidates = Set.copyOf(candidates);
        }

        @Override
        public Truth test(PropertySource properties) {
            Object x = value.value(properties);
            if (!(x instanceof String s)) {
                return x == null ? Truth.UNKNOWN : ComparisonOperator.INCOMPARABLE;
            }
            return Truth.of(candidates.contains(s) != negated);
        }
    }

    /** {@code x [NOT] LIKE 'pattern' [ESCAPE 'c']}: UNKNOWN when {@code x} is NULL, FALSE when it is not a string. */
    record Like(Operand value, LikePattern pattern, boolean negated) implements Condition {

        Like {
            Objects.requireNonNull(pattern, "pattern");
        }

        @Override
        public Truth test(PropertySource properties) {
            Object x = value.value(properties);
            if (!(x instanceof String s)) {
                return x == null ? Truth.UNKNOWN : ComparisonOperator.INCOMPARABLE;
            }
            return Truth.of(pattern.matches(s) != negated);
        }
    }

    /** {@code x IS [NOT] NULL}: the one predicate that turns a missing value into TRUE or FALSE. */
    record IsNull(Operand value, boolean negated) implements Condition {

        @Override
        public Truth test(PropertySource properties) {
            return Truth.of((value.value(properties) == null) != negated);
        }
    }
}
