package dev.wharf.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Untyped text properties (low-level client messages) compare as the numbers they read as. */
class NumericTextTest {

    private static PropertySource text(Map<String, Object> values) {
        return new PropertySource() {
            @Override
            public Object get(String name) {
                return values.get(name);
            }

            @Override
            public boolean numericText() {
                return true;
            }
        };
    }

    private static boolean matches(String selector, Map<String, Object> values) {
        return SelectorParser.parse(selector).matches(text(values));
    }

    @Test
    void numericStringsCompareWithNumbers() {
        Map<String, Object> order = Map.of("amount", "250", "ratio", "0.75", "code", "007", "region", "EU");
        assertThat(matches("amount > 100", order)).isTrue();
        assertThat(matches("amount = 250.0", order)).isTrue();
        assertThat(matches("ratio BETWEEN 0.5 AND 1", order)).isTrue();
        assertThat(matches("amount NOT BETWEEN 0 AND 100", order)).isTrue();
        assertThat(matches("code = 7", order)).isTrue();
        assertThat(matches("code = '007'", order)).as("text still compares as text").isTrue();
        assertThat(matches("region > 1", order)).as("text that is no number").isFalse();
        assertThat(matches("NOT (region > 1)", order)).as("incomparable is FALSE, as for typed values").isTrue();
    }

    @Test
    void textThatOnlyLooksLikeANumberIsNotOne() {
        assertThat(Numbers.parse("12")).isEqualTo(12L);
        assertThat(Numbers.parse(" -3.5 ")).isEqualTo(-3.5);
        assertThat(Numbers.parse("1e3")).isEqualTo(1000.0);
        assertThat(Numbers.parse("NaN")).isNull();
        assertThat(Numbers.parse("Infinity")).isNull();
        assertThat(Numbers.parse("1d")).isNull();
        assertThat(Numbers.parse("0x10")).isNull();
        assertThat(Numbers.parse("")).isNull();
        assertThat(Numbers.parse("99999999999999999999")).isEqualTo(1e20);
    }

    @Test
    void typedSourcesKeepStrictTyping() {
        PropertySource typed = Map.<String, Object>of("amount", "250")::get;
        assertThat(SelectorParser.parse("amount > 100").matches(typed)).isFalse();
    }
}
