package dev.wharf.filter;

/**
 * One lexical token of a selector.
 *
 * @param type what kind of token
 * @param text the token exactly as written (keywords keep the user's spelling, strings keep their quotes)
 * @param column 1-based column of the first character
 * @param value the literal value: the unescaped {@link String}, a {@link Long}, {@link Double} or {@link Float};
 *     for an exact number too large for a long, its magnitude as a {@link java.math.BigInteger} (only valid
 *     directly after a unary minus); {@code null} for other tokens
 */
record Token(Type type, String text, int column, Object value) {

    enum Type {
        IDENTIFIER,
        STRING,
        EXACT_NUMBER,
        APPROXIMATE_NUMBER,
        // Keywords: matched case-insensitively, never identifiers.
        AND,
        OR,
        NOT,
        BETWEEN,
        LIKE,
        IN,
        IS,
        ESCAPE,
        NULL,
        TRUE,
        FALSE,
        // Punctuation and operators.
        LEFT_PAREN,
        RIGHT_PAREN,
        COMMA,
        PLUS,
        MINUS,
        STAR,
        SLASH,
        EQUAL,
        NOT_EQUAL,
        LESS,
        LESS_OR_EQUAL,
        GREATER,
        GREATER_OR_EQUAL,
        END;

        boolean isKeyword() {
            return compareTo(AND) >= 0 && compareTo(FALSE) <= 0;
        }
    }

    /** How the token is named in an error message, e.g. {@code '>'} or {@code the end of the selector}. */
    String describe() {
        return switch (type) {
            case END -> "the end of the selector";
            case STRING -> "the string " + text;
            default -> "'" + text + "'";
        };
    }
}
