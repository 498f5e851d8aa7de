package dev.wharf.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The AND, OR and NOT tables of the specification, checked both on {@link Truth} and end to end through
 * selectors whose operands are a TRUE property, a FALSE property and a missing (UNKNOWN) property.
 */
class ThreeValuedLogicTest {

    private static final Map<String, Object> MESSAGE = Map.of("yes", true, "no", false);

    /** Operand letter to a selector operand that evaluates to it. */
    private static final Map<String, String> OPERAND = Map.of("T", "yes", "F", "no", "U", "missing");

    // The specification's tables, row operand x column operand = result.
    private static final String[][] AND = {
            {"T", "T", "T"}, {"T", "F", "F"}, {"T", "U", "U"},
            {"F", "T", "F"}, {"F", "F", "F"}, {"F", "U", "F"},
            {"U", "T", "U"}, {"U", "F", "F"}, {"U", "U", "U"}};
    private static final String[][] OR = {
            {"T", "T", "T"}, {"T", "F", "T"}, {"T", "U", "T"},
            {"F", "T", "T"}, {"F", "F", "F"}, {"F", "U", "U"},
            {"U", "T", "T"}, {"U", "F", "U"}, {"U", "U", "U"}};

    static Stream<Arguments> binary() {
        return Stream.concat(
                Stream.of(AND).map(r -> Arguments.of("AND", r[0], r[1], r[2])),
                Stream.of(OR).map(r -> Arguments.of("OR", r[0], r[1], r[2])));
    }

    static Stream<Arguments> negation() {
        return Stream.of(Arguments.of("T", "F"), Arguments.of("F", "T"), Arguments.of("U", "U"));
    }

    @ParameterizedTest(name = "{1} {0} {2} = {3}")
    @MethodSource("binary")
    void binaryOperatorFollowsTheTable(String operator, String left, String right, String expected) {
        Truth l = truth(left);
        Truth r = truth(right);
        Truth direct = operator.equals("AND") ? l.and(r) : l.or(r);
        assertThat(direct).isEqualTo(truth(expected));

        String selector = OPERAND.get(left) + " " + operator + " " + OPERAND.get(right);
        assertThat(evaluate(selector)).as(selector).isEqualTo(truth(expected));
        // Comparisons yield the same truths as boolean properties do.
        String compared = comparison(left) + " " + operator + " " + comparison(right);
        assertThat(evaluate(compared)).as(compared).isEqualTo(truth(expected));
    }

    @ParameterizedTest(name = "NOT {0} = {1}")
    @MethodSource("negation")
    void notFollowsTheTable(String operand, String expected) {
        assertThat(truth(operand).not()).isEqualTo(truth(expected));
        assertThat(evaluate("NOT " + OPERAND.get(operand))).isEqualTo(truth(expected));
        assertThat(evaluate("NOT (" + comparison(operand) + ")")).isEqualTo(truth(expected));
    }

    private static String comparison(String letter) {
        return switch (letter) {
            case "T" -> "1 = 1";
            case "F" -> "1 = 2";
            default -> "missing = 1";
        };
    }

    private static Truth evaluate(String selector) {
        return ((CompiledSelector) SelectorParser.parse(selector)).evaluate(MESSAGE::get);
    }

    private static Truth truth(String letter) {
        return switch (letter) {
            case "T" -> Truth.TRUE;
            case "F" -> Truth.FALSE;
            default -> Truth.UNKNOWN;
        };
    }
}
