package dev.wharf.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The LIKE matcher on its own, checked against a regular-expression oracle built with proper quoting. */
class LikePatternTest {

    static Stream<Arguments> patternsAndValues() {
        String[] patterns = {"", "%", "_", "a", "a%", "%a", "%a%", "a_c", "%a%b%c", "%ab%ab", "__%__", "%%a%%",
                "a.c", "(x)*", "%_%_%"};
        String[] values = {"", "a", "b", "ab", "abc", "a.c", "axc", "aabbcc", "abxaab", "abxaaba", "(x)*", "xyzzy",
                "aaaa", "cab"};
        return Stream.of(patterns).flatMap(p -> Stream.of(values).map(v -> Arguments.of(p, v)));
    }

    @ParameterizedTest(name = "''{1}'' LIKE ''{0}''")
    @MethodSource("patternsAndValues")
    void agreesWithRegularExpressionOracle(String pattern, String value) {
        assertThat(LikePattern.compile(pattern, -1).matches(value)).isEqualTo(oracle(pattern).matcher(value).matches());
    }

    @Test
    void manyWildcardsOnALongValueStillAnswer() {
        // A naive backtracking matcher takes exponential time here; this one is bounded by pattern x value.
        String value = "a".repeat(5_000);
        LikePattern pattern = LikePattern.compile("%a%a%a%a%a%a%a%a%b", -1);

        assertThat(pattern.matches(value)).isFalse();
        assertThat(pattern.matches(value + "b")).isTrue();
    }

    @Test
    void escapeMakesWildcardsLiteral() {
        LikePattern pattern = LikePattern.compile("50#%#_", '#');

        assertThatThrownBy(() -> LikePattern.compile("ab#", '#')).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends with the escape character '#'");
        assertThat(LikePattern.compile("50#%", '#').matches("50%")).isTrue();
        assertThat(LikePattern.compile("50#%", '#').matches("500")).isFalse();
        assertThat(LikePattern.compile("#_%", '#').matches("_x")).isTrue();
        assertThat(LikePattern.compile("#_%", '#').matches("xx")).isFalse();
        assertThat(LikePattern.compile("a##b", '#').matches("a#b")).isTrue();
        assertThat(pattern.matches("50%_")).isTrue();
        assertThat(pattern.matches("50%x")).isFalse();
        assertThat(pattern.toString()).contains("50#%#_");
    }

    @Test
    void supplementaryCharactersCountAsOne() {
        String grin = "\uD83D\uDE00";

        assertThat(LikePattern.compile("_", -1).matches(grin)).isTrue();
        assertThat(LikePattern.compile("__", -1).matches(grin)).isFalse();
        assertThat(LikePattern.compile("%" + grin, -1).matches("ab" + grin)).isTrue();
        assertThat(LikePattern.compile(grin + "_", -1).matches(grin + grin)).isTrue();
    }

    private static Pattern oracle(String like) {
        StringBuilder regex = new StringBuilder();
        for (char c : like.toCharArray()) {
            switch (c) {
                case '%' -> regex.append(".*");
                case '_' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
