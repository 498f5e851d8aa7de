package dev.wharf.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Selectors that must be rejected, each with the column the error must point at and a phrase it must contain. */
class InvalidSelectorTest {

    static Stream<Arguments> invalidSelectors() {
        return Stream.of(
                // Syntax.
                bad("price > > 3", 9, "expected a value but found '>'"),
                bad("a +", 4, "expected a value but found the end of the selector"),
                bad("a =", 4, "expected a value but found the end of the selector"),
                bad("()", 2, "expected a value but found ')'"),
                bad("a == 1", 4, "expected a value but found '='"),
                bad("a = 1 b = 2", 7, "unexpected 'b' after a complete expression"),
                bad("a = 1 = 2", 7, "unexpected '='"),
                bad("(a = 1", 7, "expected ')' to close the '(' at column 1"),
                bad("a = 1)", 6, "unexpected ')'"),
                bad("a NOT = 1", 7, "expected BETWEEN, IN or LIKE after NOT"),
                bad("a IS 5", 6, "expected NULL after IS but found '5'"),
                bad("a IS NOT 5", 10, "expected NULL after IS NOT"),
                bad("a BETWEEN 1 OR 2", 13, "expected AND between the two bounds of BETWEEN"),
                bad("a LIKE b", 8, "LIKE needs a string literal pattern"),
                bad("a LIKE 'x' ESCAPE 1", 19, "ESCAPE needs a one-character string literal"),
                // Characters.
                bad("a != 1", 3, "unexpected character '!'"),
                bad("a = \"x\"", 5, "single quotes"),
                bad("a % 2 = 0", 3, "unexpected character '%'"),
                bad("a = 1 && b = 2", 7, "use AND"),
                bad("a\u00A0= 1", 2, "unexpected character U+00A0"),
                bad("a = @", 5, "unexpected character '@'"),
                bad("a.b = 1", 2, "unexpected character '.'"),
                // Literals.
                bad("s = 'abc", 5, "unterminated string literal"),
                bad("s = 'it''s", 5, "unterminated string literal"),
                bad("i = 1.2.3", 5, "malformed number '1.2.3'"),
                bad("i = 12abc", 5, "malformed number '12abc'"),
                bad("i = 1_000", 5, "malformed number '1_000'"),
                bad("i = 09", 5, "not an octal digit"),
                bad("i = 99999999999999999999", 5, "outside the range of a long"),
                bad("i = 9223372036854775808", 5, "outside the range of a long"),
                bad("i = +9223372036854775808", 6, "outside the range of a long"),
                bad("i = 0x1FFFFFFFFFFFFFFFF", 5, "does not fit in the 64 bits"),
                bad("i = 1e999", 5, "outside the range of a double"),
                bad("i = 1e-999", 5, "too small"),
                bad("i = 1e", 5, "the exponent has no digits"),
                bad("i = 0x", 5, "no digits after the prefix"),
                bad("i = 1e5L", 5, "malformed number '1e5L'"),
                // ESCAPE, IN, LIKE rules.
                bad("s LIKE 'a' ESCAPE 'ab'", 19, "exactly one character"),
                bad("s LIKE 'a' ESCAPE ''", 19, "exactly one character"),
                bad("s LIKE 'a!' ESCAPE '!'", 8, "ends with the escape character"),
                bad("s IN ()", 7, "the IN list is empty"),
                bad("s IN (1, 2)", 7, "IN takes a list of string literals, but found '1'"),
                bad("s IN ('a', b)", 12, "IN takes a list of string literals, but found 'b'"),
                bad("s IN ('a', NULL)", 12, "IN takes a list of string literals"),
                bad("s IN 'a'", 6, "expected '(' after IN"),
                bad("s IN ('a'", 10, "expected ',' or ')' in the IN list"),
                bad("'x' LIKE 'x'", 1, "LIKE applies to an identifier"),
                bad("1 IN ('1')", 1, "IN applies to an identifier"),
                bad("(a + 1) IS NULL", 1, "IS NULL applies to an identifier"),
                // Reserved words.
                bad("NULL = 1", 1, "NULL may only appear in 'IS NULL'"),
                bad("a = NULL", 5, "NULL may only appear in 'IS NULL'"),
                bad("AND = 1", 1, "'AND', a reserved word"),
                bad("and > 1", 1, "'and', a reserved word"),
                bad("x = between", 5, "'between', a reserved word"),
                bad("escape = 'x'", 1, "'escape', a reserved word"),
                bad("is IS NULL", 1, "'is', a reserved word"),
                bad("a LIKE 'x' OR Like = 1", 15, "'Like', a reserved word"),
                // Kinds.
                bad("'x'", 1, "a selector must be a condition"),
                bad("5", 1, "a selector must be a condition"),
                bad("a + 1", 1, "a selector must be a condition (a comparison, BETWEEN, IN, LIKE, IS NULL or a boolean"
                        + " property), but this is a numeric expression"),
                bad("(a + 1)", 1, "a selector must be a condition"),
                bad("NOT 5", 5, "NOT needs a condition, but this is a numeric expression"),
                bad("a AND 5", 7, "AND needs a condition on both sides"),
                bad("5 OR a", 1, "OR needs a condition on both sides"),
                bad("a = 1 AND 'x'", 11, "AND needs a condition on both sides, but this is a string"),
                bad("'a' + 1 = 2", 1, "'+' needs numbers, but this is a string"),
                bad("a + 'b' = 2", 5, "'+' needs numbers, but this is a string"),
                bad("TRUE * 2 = 2", 1, "'*' needs numbers, but this is a condition"),
                bad("(a > 1) + 1 = 2", 1, "'+' needs numbers, but this is a condition"),
                bad("-'x' = 1", 2, "unary '-' needs a number"),
                bad("a BETWEEN 'x' AND 'z'", 11, "the bounds of BETWEEN must be numeric"),
                bad("'x' BETWEEN 1 AND 2", 1, "BETWEEN compares numbers"),
                // Comparisons of known, unlike types, and ordering of strings and booleans (3.8.1.2).
                bad("TRUE = 0", 6, "'=' compares a condition with a numeric expression"),
                bad("'foo' > TRUE", 1, "'>' cannot order a string"),
                bad("myProp > 'foo'", 10, "'>' cannot order a string"),
                bad("'a' <= s", 1, "'<=' cannot order a string"),
                bad("b >= FALSE", 6, "'>=' cannot order a condition"),
                bad("(a > 1) < (b > 2)", 1, "'<' cannot order a condition"),
                bad("'1' = 1", 5, "'=' compares a string with a numeric expression"),
                bad("a + 1 <> 'x'", 7, "'<>' compares a numeric expression with a string"),
                bad("(a = 1) = 'x'", 9, "'=' compares a condition with a string"),
                bad("FALSE <> 2.5", 7, "'<>' compares a condition with a numeric expression"),
                // Nesting is bounded.
                bad("(".repeat(101) + "a" + ")".repeat(101), 101, "more than 100 levels deep"),
                bad("NOT ".repeat(101) + "a", 401, "more than 100 levels deep"),
                bad("-".repeat(102) + "a = 1", 101, "more than 100 levels deep"));
    }

    @ParameterizedTest(name = "{0} -> column {1}")
    @MethodSource("invalidSelectors")
    void rejects(String selector, int column, String phrase) {
        assertThatThrownBy(() -> SelectorParser.parse(selector))
                .isInstanceOfSatisfying(InvalidSelectorException.class, e -> {
                    assertThat(e.column()).as(e.getMessage()).isEqualTo(column);
                    assertThat(e.getMessage())
                            .startsWith("Invalid selector \"" + selector + "\" at column " + column + ": ")
                            .contains(phrase);
                    assertThat(e.expression()).isEqualTo(selector);
                    assertThat(e.getMessage()).endsWith(e.reason());
                });
    }

    @Test
    void messageHasTheDocumentedShape() {
        assertThatThrownBy(() -> SelectorParser.parse("price > > 3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid selector \"price > > 3\" at column 9: expected a value but found '>'");
    }

    @Test
    void nestingUpToTheLimitIsAccepted() {
        String selector = "(".repeat(SelectorParser.MAX_NESTING) + "a = 1" + ")".repeat(SelectorParser.MAX_NESTING);

        assertThat(SelectorParser.parse(selector).matches(name -> name.equals("a") ? 1 : null)).isTrue();
    }

    private static Arguments bad(String selector, int column, String phrase) {
        return Arguments.of(selector, column, phrase);
    }
}
