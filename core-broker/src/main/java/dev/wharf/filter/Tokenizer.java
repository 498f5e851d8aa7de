package dev.wharf.filter;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splits a selector into {@link Token}s. White space is Java's: space, tab, form feed, CR and LF. Literals
 * follow Java's literal syntax as the specification requires: exact numbers in decimal, hex ({@code 0x1F}),
 * octal ({@code 017}) or binary ({@code 0b101}) with an optional {@code L}; approximate numbers such as
 * {@code 7E3}, {@code 57.9e-2}, {@code 7.}, {@code .5}, with an optional {@code d} or {@code f} suffix (an
 * {@code f} literal is a float). Signs are not part of a literal; the parser folds a unary minus into it.
 * Digit-group underscores and hexadecimal floating point are not supported.
 */
final class Tokenizer {

    private static final Map<String, Token.Type> KEYWORDS = Map.ofEntries(
            Map.entry("AND", Token.Type.AND),
            Map.entry("OR", Token.Type.OR),
            Map.entry("NOT", Token.Type.NOT),
            Map.entry("BETWEEN", Token.Type.BETWEEN),
            Map.entry("LIKE", Token.Type.LIKE),
            Map.entry("IN", Token.Type.IN),
            Map.entry("IS", Token.Type.IS),
            Map.entry("ESCAPE", Token.Type.ESCAPE),
            Map.entry("NULL", Token.Type.NULL),
            Map.entry("TRUE", Token.Type.TRUE),
            Map.entry("FALSE", Token.Type.FALSE));

    private static final BigInteger LONG_MIN_MAGNITUDE = BigInteger.ONE.shiftLeft(63);

    private final String input;
    private int pos;

    private Tokenizer(String input) {
        this.input = input;
    }

    /** Tokenizes the whole selector; the last token is always {@link Token.Type#END}. */
    static List<Token> tokenize(String input) {
        Tokenizer tokenizer = new Tokenizer(input);
        List<Token> tokens = new ArrayList<>();
        Token token;
        do {
            token = tokenizer.next();
            tokens.add(token);
        } while (token.type() != Token.Type.END);
        return tokens;
    }

    private Token next() {
        skipWhiteSpace();
        int start = pos;
        if (pos >= input.length()) {
            return new Token(Token.Type.END, "", start + 1, null);
        }
        int cp = input.codePointAt(pos);
        if (cp == '\'') {
            return string();
        }
        if (isDigit(cp) || (cp == '.' && pos + 1 < input.length() && isDigit(input.charAt(pos + 1)))) {
            return number();
        }
        if (Character.isJavaIdentifierStart(cp)) {
            return word();
        }
        pos++;
        switch (cp) {
            case '(': return symbol(Token.Type.LEFT_PAREN, start);
            case ')': return symbol(Token.Type.RIGHT_PAREN, start);
            case ',': return symbol(Token.Type.COMMA, start);
            case '+': return symbol(Token.Type.PLUS, start);
            case '-': return symbol(Token.Type.MINUS, start);
            case '*': return symbol(Token.Type.STAR, start);
            case '/': return symbol(Token.Type.SLASH, start);
            case '=': return symbol(Token.Type.EQUAL, start);
            case '<':
                if (accept('>')) {
                    return symbol(Token.Type.NOT_EQUAL, start);
                }
                return symbol(accept('=') ? Token.Type.LESS_OR_EQUAL : Token.Type.LESS, start);
            case '>':
                return symbol(accept('=') ? Token.Type.GREATER_OR_EQUAL : Token.Type.GREATER, start);
            default:
                throw unexpectedCharacter(cp, start);
        }
    }

    private void skipWhiteSpace() {
        while (pos < input.length()) {
            char c = input.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\f' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private boolean accept(char expected) {
        if (pos < input.length() && input.charAt(pos) == expected) {
            pos++;
            return true;
        }
        return false;
    }

    private Token symbol(Token.Type type, int start) {
        return new Token(type, input.substring(start, pos), start + 1, null);
    }

    private Token word() {
        int start = pos;
        pos += Character.charCount(input.codePointAt(pos));
        while (pos < input.length() && Character.isJavaIdentifierPart(input.codePointAt(pos))) {
            pos += Character.charCount(input.codePointAt(pos));
        }
        String text = input.substring(start, pos);
        Token.Type keyword = KEYWORDS.get(text.toUpperCase(Locale.ROOT));
        return new Token(keyword != null ? keyword : Token.Type.IDENTIFIER, text, start + 1, null);
    }

    private Token string() {
        int start = pos;
        StringBuilder value = new StringBuilder();
        pos++;
        while (pos < input.length()) {
            char c = input.charAt(pos++);
            if (c != '\'') {
                value.append(c);
            } else if (pos < input.length() && input.charAt(pos) == '\'') {
                value.append('\'');
                pos++;
            } else {
                return new Token(Token.Type.STRING, input.substring(start, pos), start + 1, value.toString());
            }
        }
        throw new InvalidSelectorException(input, start + 1,
                "unterminated string literal; close it with a single quote (write '' for a quote inside a string)");
    }

    private Token number() {
        int start = pos;
        if (input.charAt(pos) == '0' && pos + 1 < input.length()) {
            char radixMark = Character.toLowerCase(input.charAt(pos + 1));
            if (radixMark == 'x') {
                return radixInteger(start, 16, 2);
            }
            if (radixMark == 'b') {
                return radixInteger(start, 2, 2);
            }
        }
        int integerDigits = skipDigits();
        boolean approximate = false;
        if (pos < input.length() && input.charAt(pos) == '.') {
            approximate = true;
            pos++;
            skipDigits();
        }
        if (pos < input.length() && Character.toLowerCase(input.charAt(pos)) == 'e') {
            approximate = true;
            pos++;
            if (pos < input.length() && (input.charAt(pos) == '+' || input.charAt(pos) == '-')) {
                pos++;
            }
            if (skipDigits() == 0) {
                throw badNumber(start, "the exponent has no digits");
            }
        }
        char suffix = pos < input.length() ? Character.toLowerCase(input.charAt(pos)) : 0;
        if (suffix == 'f' || suffix == 'd') {
            pos++;
            requireEndOfNumber(start);
            return approximate(start, suffix == 'f');
        }
        if (approximate) {
            requireEndOfNumber(start);
            return approximate(start, false);
        }
        if (suffix == 'l') {
            pos++;
        }
        requireEndOfNumber(start);
        String digits = input.substring(start, start + integerDigits);
        if (digits.length() > 1 && digits.charAt(0) == '0') {
            return radixLiteral(start, digits.substring(1), 8);
        }
        BigInteger magnitude = new BigInteger(digits);
        if (magnitude.bitLength() < 64) {
            return new Token(Token.Type.EXACT_NUMBER, input.substring(start, pos), start + 1, magnitude.longValue());
        }
        if (magnitude.equals(LONG_MIN_MAGNITUDE)) {
            return new Token(Token.Type.EXACT_NUMBER, input.substring(start, pos), start + 1, magnitude);
        }
        throw badNumber(start, "it is outside the range of a long (" + Long.MIN_VALUE + " to " + Long.MAX_VALUE + ")");
    }

    /** A hex or binary integer after its two-character prefix. */
    private Token radixInteger(int start, int radix, int prefixLength) {
        pos += prefixLength;
        int digitsStart = pos;
        while (pos < input.length() && Character.digit(input.charAt(pos), radix) >= 0) {
            pos++;
        }
        int digitsEnd = pos;
        if (pos < input.length() && Character.toLowerCase(input.charAt(pos)) == 'l') {
            pos++;
        }
        requireEndOfNumber(start);
        if (digitsEnd == digitsStart) {
            throw badNumber(start, "there are no digits after the prefix");
        }
        return radixLiteral(start, input.substring(digitsStart, digitsEnd), radix);
    }

    /**
     * Like Java, a hex, octal or binary literal may use all 64 bits: {@code 0xFFFFFFFFFFFFFFFF} is -1.
     */
    private Token radixLiteral(int start, String digits, int radix) {
        for (int i = 0; i < digits.length(); i++) {
            if (Character.digit(digits.charAt(i), radix) < 0) {
                throw badNumber(start, "'" + digits.charAt(i) + "' is not an octal digit (a number starting with 0"
                        + " is octal; remove the leading zero for a decimal number)");
            }
        }
        BigInteger magnitude = new BigInteger(digits, radix);
        if (magnitude.bitLength() > 64) {
            throw badNumber(start, "it does not fit in the 64 bits of a long");
        }
        return new Token(Token.Type.EXACT_NUMBER, input.substring(start, pos), start + 1, magnitude.longValue());
    }

    private Token approximate(int start, boolean isFloat) {
        String text = input.substring(start, pos);
        // Double.parseDouble and Float.parseFloat accept exactly Java's decimal floating-point literal forms.
        double value = isFloat ? Float.parseFloat(text) : Double.parseDouble(text);
        if (Double.isInfinite(value)) {
            throw badNumber(start, "it is outside the range of a " + (isFloat ? "float" : "double"));
        }
        if (value == 0 && hasNonZeroDigit(text)) {
            throw badNumber(start, "it is too small to be represented as a " + (isFloat ? "float" : "double"));
        }
        Object boxed = isFloat ? (Object) (float) value : (Object) value;
        return new Token(Token.Type.APPROXIMATE_NUMBER, text, start + 1, boxed);
    }

    private static boolean hasNonZeroDigit(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 'e' || c == 'E') {
                return false;
            }
            if (c >= '1' && c <= '9') {
                return true;
            }
        }
        return false;
    }

    private int skipDigits() {
        int from = pos;
        while (pos < input.length() && isDigit(input.charAt(pos))) {
            pos++;
        }
        return pos - from;
    }

    /** A number must not run straight into a letter, digit or dot ({@code 12abc}, {@code 1.2.3}, {@code 1_000}). */
    private void requireEndOfNumber(int start) {
        if (pos < input.length() && (input.charAt(pos) == '.' || Character.isJavaIdentifierPart(input.codePointAt(pos)))) {
            throw badNumber(start, "'" + new String(Character.toChars(input.codePointAt(pos)))
                    + "' cannot follow it; put white space or an operator between a number and what follows");
        }
    }

    private InvalidSelectorException badNumber(int start, String why) {
        int end = pos;
        while (end < input.length()
                && (input.charAt(end) == '.' || Character.isJavaIdentifierPart(input.codePointAt(end)))) {
            end += Character.charCount(input.codePointAt(end));
        }
        return new InvalidSelectorException(input, start + 1,
                "malformed number '" + input.substring(start, end) + "': " + why);
    }

    private InvalidSelectorException unexpectedCharacter(int cp, int start) {
        String shown = new String(Character.toChars(cp));
        String hint = switch (cp) {
            case '"' -> "; string literals use single quotes, e.g. 'text'";
            case '!' -> "; use <> for 'not equal' and NOT for negation";
            case '&' -> "; use AND";
            case '|' -> "; use OR";
            case '%' -> "; there is no modulo operator, and % is a wildcard only inside a LIKE pattern";
            default -> "";
        };
        String description = Character.isISOControl(cp) || Character.isSpaceChar(cp)
                ? String.format("U+%04X", cp)
                : "'" + shown + "'";
        return new InvalidSelectorException(input, start + 1, "unexpected character " + description + hint);
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }
}
