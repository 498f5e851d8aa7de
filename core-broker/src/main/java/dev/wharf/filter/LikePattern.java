package dev.wharf.filter;

import java.util.Arrays;

/**
 * A compiled LIKE pattern: {@code _} matches exactly one character, {@code %} any sequence including the empty
 * one, and every other character only itself (so {@code .}, {@code *} or {@code [} have no special meaning).
 * An escape character makes the character after it literal. Characters are Unicode code points, so {@code _}
 * matches one supplementary character, not half of it.
 *
 * <p>Matching is a hand-written wildcard matcher that allocates nothing and runs in O(pattern * value) time in
 * the worst case (it backtracks only to the most recent {@code %}), so no pattern can make it explode.
 * Immutable and thread-safe.
 */
final class LikePattern {

    /** Marker in {@link #elements} for {@code _}; real code points are never negative. */
    private static final int ANY_ONE = -1;
    /** Marker in {@link #elements} for {@code %}; consecutive ones are collapsed at compile time. */
    private static final int ANY_SEQUENCE = -2;

    private final String source;
    private final int[] elements;

    private LikePattern(String source, int[] elements) {
        this.source = source;
        this.elements = elements;
    }

    /**
     * Compiles {@code pattern}.
     *
     * @param escape the escape code point, or {@code -1} for none
     * @throws IllegalArgumentException if the pattern ends with an escape character that escapes nothing; the
     *     message is a sentence the parser puts into its own error
     */
    static LikePattern compile(String pattern, int escape) {
        int[] out = new int[pattern.length()];
        int n = 0;
        for (int i = 0; i < pattern.length(); ) {
            int cp = pattern.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == escape) {
                if (i >= pattern.length()) {
                    throw new IllegalArgumentException("the LIKE pattern ends with the escape character '"
                            + new String(Character.toChars(escape)) + "', which must be followed by the character it"
                            + " escapes (for example '_' or '%')");
                }
                cp = pattern.codePointAt(i);
                i += Character.charCount(cp);
                out[n++] = cp;
            } else if (cp == '%') {
                if (n == 0 || out[n - 1] != ANY_SEQUENCE) {
                    out[n++] = ANY_SEQUENCE;
                }
            } else if (cp == '_') {
                out[n++] = ANY_ONE;
            } else {
                out[n++] = cp;
            }
        }
        return new LikePattern(pattern, Arrays.copyOf(out, n));
    }

    boolean matches(String value) {
        int[] pattern = elements;
        int p = 0;
        int s = 0;
        // Where the last '%' was seen and the value position it currently stands in for; -1 before any '%'.
        int starP = -1;
        int starS = -1;
        int length = value.length();
        while (s < length) {
            if (p < pattern.length && pattern[p] == ANY_SEQUENCE) {
                starP = p++;
                starS = s;
                continue;
            }
            int cp = value.codePointAt(s);
            if (p < pattern.length && (pattern[p] == ANY_ONE || pattern[p] == cp)) {
                p++;
                s += Character.charCount(cp);
            } else if (starP >= 0) {
                // Let the last '%' swallow one more character and retry the rest of the pattern from there.
                starS += Character.charCount(value.codePointAt(starS));
                s = starS;
                p = starP + 1;
            } else {
                return false;
            }
        }
        while (p < pattern.length && pattern[p] == ANY_SEQUENCE) {
            p++;
        }
        return p == pattern.length;
    }

    @Override
    public String toString() {
        return "LikePattern[" + source + "]";
    }
}
