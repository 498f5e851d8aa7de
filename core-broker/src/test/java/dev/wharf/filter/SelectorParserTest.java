package dev.wharf.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The parser's contract outside the semantics table: empty selectors, the text, and large inputs. */
class SelectorParserTest {

    private static final PropertySource NO_PROPERTIES = name -> null;

    @Test
    void nullSelectorMatchesEverything() {
        Selector selector = SelectorParser.parse(null);

        assertThat(selector.matches(NO_PROPERTIES)).isTrue();
        assertThat(selector.expression()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t\r\n\f  "})
    void blankSelectorMatchesEverythingAndKeepsItsText(String blank) {
        Selector selector = SelectorParser.parse(blank);

        assertThat(selector.matches(NO_PROPERTIES)).isTrue();
        assertThat(selector.matches(name -> "anything")).isTrue();
        assertThat(selector.expression()).isEqualTo(blank);
    }

    @Test
    void expressionIsTheTextAsGiven() {
        String text = "  JMSType = 'car'\n AND weight > 2500 ";

        Selector selector = SelectorParser.parse(text);

        assertThat(selector.expression()).isEqualTo(text);
        assertThat(selector.matches(Map.<String, Object>of("JMSType", "car", "weight", 2600)::get)).isTrue();
        assertThat(selector.matches(Map.<String, Object>of("JMSType", "car", "weight", 2400)::get)).isFalse();
    }

    @Test
    void javaWhiteSpaceSeparatesTokens() {
        Selector selector = SelectorParser.parse("a\t=\f1\r\nAND\nb\t<>\t2");

        assertThat(selector.matches(Map.<String, Object>of("a", 1, "b", 3)::get)).isTrue();
    }

    @Test
    void nullPropertySourceIsRejected() {
        Selector selector = SelectorParser.parse("a = 1");

        assertThatThrownBy(() -> selector.matches(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void longGeneratedOrChainIsShallow() {
        // One OR node holding every operand: evaluating it cannot run out of stack.
        String selector = IntStream.range(0, 5_000).mapToObj(i -> "id = " + i).collect(Collectors.joining(" OR "));

        Selector parsed = SelectorParser.parse(selector);

        assertThat(parsed.matches(Map.<String, Object>of("id", 4_999)::get)).isTrue();
        assertThat(parsed.matches(Map.<String, Object>of("id", 5_000)::get)).isFalse();
    }

    @Test
    void longArithmeticChainIsShallow() {
        String selector = "1" + " + 1".repeat(10_000) + " = 10001";

        assertThat(SelectorParser.parse(selector).matches(NO_PROPERTIES)).isTrue();
    }

    @Test
    void longMinValueIsOnlyWritableNegated() {
        assertThat(SelectorParser.parse("x = -9223372036854775808")
                .matches(Map.<String, Object>of("x", Long.MIN_VALUE)::get)).isTrue();
        assertThat(SelectorParser.parse("x = -9223372036854775807 - 1")
                .matches(Map.<String, Object>of("x", Long.MIN_VALUE)::get)).isTrue();
    }

    @Test
    void theSpecificationsExampleSelects() {
        Selector selector = SelectorParser.parse("JMSType = 'car' AND color = 'blue' AND weight > 2500");

        assertThat(selector.matches(Map.<String, Object>of("JMSType", "car", "color", "blue", "weight", 3000L)::get))
                .isTrue();
        assertThat(selector.matches(Map.<String, Object>of("JMSType", "car", "color", "red", "weight", 3000L)::get))
                .isFalse();
        assertThat(selector.matches(Map.<String, Object>of("JMSType", "car", "color", "blue")::get)).isFalse();
    }

    @Test
    void stringPropertyIsNotConvertedForArithmetic() {
        // The specification's example: a property set as the string "2" is not a number in a selector.
        Selector selector = SelectorParser.parse("NumberOfOrders > 1");

        assertThat(selector.matches(Map.<String, Object>of("NumberOfOrders", "2")::get)).isFalse();
        assertThat(selector.matches(Map.<String, Object>of("NumberOfOrders", 2)::get)).isTrue();
    }
}
