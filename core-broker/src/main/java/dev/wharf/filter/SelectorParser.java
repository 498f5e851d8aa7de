package dev.wharf.filter;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Parses a JMS message selector (the SQL92 subset of the Jakarta Messaging specification) into an immutable,
 * thread-safe {@link Selector}. A hand-written recursive-descent parser over the tokens of {@link Tokenizer}:
 *
 * <pre>
 * selector       := orExpr END
 * orExpr         := andExpr (OR andExpr)*
 * andExpr        := notExpr (AND notExpr)*
 * notExpr        := NOT notExpr | predicate
 * predicate      := additive [ compareOp additive
 *                            | [NOT] BETWEEN additive AND additive
 *                            | [NOT] IN '(' string (',' string)* ')'
 *                            | [NOT] LIKE string [ESCAPE string]
 *                            | IS [NOT] NULL ]
 * additive       := multiplicative (('+' | '-') multiplicative)*
 * multiplicative := unary (('*' | '/') unary)*
 * unary          := ('+' | '-') unary | primary
 * primary        := identifier | string | number | TRUE | FALSE | '(' orExpr ')'
 * </pre>
 *
 * Besides the grammar the parser checks what can be known before any message is seen: the selector and the
 * operands of NOT, AND and OR must be conditions (or identifiers, which may hold a Boolean); arithmetic and
 * BETWEEN need numbers or identifiers; IN, LIKE and IS NULL apply to an identifier; a comparison of literals or
 * expressions of known types needs like types, and strings and booleans only take {@code =} and {@code <>}. Every problem is reported
 * as an {@link InvalidSelectorException} naming the 1-based column.
 */
public final class SelectorParser {

    /**
     * How deep parentheses, NOT and unary signs may nest. A selector comes from a remote client and is
     * evaluated recursively by the broker, so its depth is bounded; real selectors are nowhere near this.
     */
    static final int MAX_NESTING = 100;

    /** What is statically known about the value of a sub-expression. */
    private enum Kind {
        CONDITION("a condition"),
        NUMBER("a numeric expression"),
        STRING("a string"),
        /** An identifier: its type is only known per message. */
        ANY("an identifier");

        final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    /** A parsed sub-expression with what the checks need: its kind, where it starts, whether it is a name. */
    private record Parsed(Operand node, Kind kind, int column, boolean identifier) {

        Parsed(Operand node, Kind kind, int column) {
            this(node, kind, column, false);
        }
    }

    private final String expression;
    private final List<Token> tokens;
    private int index;
    private int nesting;

    private SelectorParser(String expression, List<Token> tokens) {
        this.expression = expression;
        this.tokens = tokens;
    }

    /**
     * Parses and checks a selector.
     *
     * @param expression the selector; {@code null}, empty or white space only means "match every message"
     * @return the compiled selector, immutable and safe to share between threads
     * @throws InvalidSelectorException if the selector is not valid
     */
    public static Selector parse(String expression) {
        if (expression == null) {
            return CompiledSelector.matchingEverything(null);
        }
        List<Token> tokens = Tokenizer.tokenize(expression);
        if (tokens.get(0).type() == Token.Type.END) {
            return CompiledSelector.matchingEverything(expression);
        }
        SelectorParser parser = new SelectorParser(expression, tokens);
        Parsed root = parser.orExpression();
        Token end = parser.peek();
        if (end.type() != Token.Type.END) {
            throw parser.error(end, "unexpected " + end.describe() + " after a complete expression; expected AND, OR"
                    + " or the end of the selector");
        }
        return new CompiledSelector(expression, parser.condition(root,
                "a selector must be a condition (a comparison, BETWEEN, IN, LIKE, IS NULL or a boolean property)"));
    }

    private Parsed orExpression() {
        Parsed first = andExpression();
        if (peek().type() != Token.Type.OR) {
            return first;
        }
        List<Condition> operands = new ArrayList<>();
        operands.add(condition(first, "OR needs a condition on both sides"));
        while (accept(Token.Type.OR)) {
            operands.add(condition(andExpression(), "OR needs a condition on both sides"));
        }
        return new Parsed(new LogicalNodes.Or(operands.toArray(Condition[]::new)), Kind.CONDITION, first.column());
    }

    private Parsed andExpression() {
        Parsed first = notExpression();
        if (peek().type() != Token.Type.AND) {
            return first;
        }
        List<Condition> operands = new ArrayList<>();
        operands.add(condition(first, "AND needs a condition on both sides"));
        while (accept(Token.Type.AND)) {
            operands.add(condition(notExpression(), "AND needs a condition on both sides"));
        }
        return new Parsed(new LogicalNodes.And(operands.toArray(Condition[]::new)), Kind.CONDITION, first.column());
    }

    private Parsed notExpression() {
        Token not = peek();
        if (!accept(Token.Type.NOT)) {
            return predicate();
        }
        enterNesting(not);
        Parsed operand = notExpression();
        nesting--;
        return new Parsed(new LogicalNodes.Not(condition(operand, "NOT needs a condition")), Kind.CONDITION,
                not.column());
    }

    private Parsed predicate() {
        Parsed left = additive();
        Token token = peek();
        ComparisonOperator comparison = comparisonOperator(token.type());
        if (comparison != null) {
            index++;
            Parsed right = additive();
            checkComparable(left, comparison, right, token);
            return new Parsed(new PredicateNodes.Compare(left.node(), comparison, right.node()), Kind.CONDITION,
                    left.column());
        }
        boolean negated = false;
        if (token.type() == Token.Type.NOT) {
            index++;
            negated = true;
            token = peek();
            if (token.type() != Token.Type.BETWEEN && token.type() != Token.Type.IN
                    && token.type() != Token.Type.LIKE) {
                throw error(token, "expected BETWEEN, IN or LIKE after NOT but found " + token.describe());
            }
        }
        switch (token.type()) {
            case BETWEEN:
                index++;
                return between(left, negated);
            case IN:
                index++;
                return in(left, token, negated);
            case LIKE:
                index++;
                return like(left, token, negated);
            case IS:
                index++;
                return isNull(left, token);
            default:
                return left;
        }
    }

    private Parsed between(Parsed value, boolean negated) {
        requireNumeric(value, "BETWEEN compares numbers");
        Parsed low = additive();
        requireNumeric(low, "the bounds of BETWEEN must be numeric");
        Token and = peek();
        if (!accept(Token.Type.AND)) {
            throw error(and, "expected AND between the two bounds of BETWEEN but found " + and.describe());
        }
        Parsed high = additive();
        requireNumeric(high, "the bounds of BETWEEN must be numeric");
        return new Parsed(new PredicateNodes.Between(value.node(), low.node(), high.node(), negated),
                Kind.CONDITION, value.column());
    }

    private Parsed in(Parsed value, Token in, boolean negated) {
        requireIdentifier(value, in);
        Token open = peek();
        if (!accept(Token.Type.LEFT_PAREN)) {
            throw error(open, "expected '(' after IN but found " + open.describe()
                    + "; write the values as a list, e.g. IN ('a', 'b')");
        }
        if (peek().type() == Token.Type.RIGHT_PAREN) {
            throw error(peek(), "the IN list is empty; give at least one string literal");
        }
        Set<String> candidates = new LinkedHashSet<>();
        do {
            Token item = peek();
            if (!accept(Token.Type.STRING)) {
                throw error(item, "IN takes a list of string literals, but found " + item.describe());
            }
            candidates.add((String) item.value());
        } while (accept(Token.Type.COMMA));
        Token close = peek();
        if (!accept(Token.Type.RIGHT_PAREN)) {
            throw error(close, "expected ',' or ')' in the IN list but found " + close.describe());
        }
        return new Parsed(new PredicateNodes.In(value.node(), candidates, negated), Kind.CONDITION, value.column());
    }

    private Parsed like(Parsed value, Token like, boolean negated) {
        requireIdentifier(value, like);
        Token pattern = peek();
        if (!accept(Token.Type.STRING)) {
            throw error(pattern, "LIKE needs a string literal pattern, but found " + pattern.describe());
        }
        int escape = -1;
        if (accept(Token.Type.ESCAPE)) {
            Token escapeToken = peek();
            if (!accept(Token.Type.STRING)) {
                throw error(escapeToken, "ESCAPE needs a one-character string literal, but found "
                        + escapeToken.describe());
            }
            String escapeText = (String) escapeToken.value();
            if (escapeText.isEmpty() || escapeText.codePointCount(0, escapeText.length()) != 1) {
                throw error(escapeToken, "the ESCAPE string must be exactly one character, but "
                        + escapeToken.text() + " has " + escapeText.codePointCount(0, escapeText.length()));
            }
            escape = escapeText.codePointAt(0);
        }
        LikePattern compiled;
        try {
            compiled = LikePattern.compile((String) pattern.value(), escape);
        } catch (IllegalArgumentException e) {
            throw error(pattern, e.getMessage());
        }
        return new Parsed(new PredicateNodes.Like(value.node(), compiled, negated), Kind.CONDITION, value.column());
    }

    private Parsed isNull(Parsed value, Token is) {
        requireIdentifier(value, is);
        boolean negated = accept(Token.Type.NOT);
        Token keyword = peek();
        if (!accept(Token.Type.NULL)) {
            throw error(keyword, "expected NULL after IS" + (negated ? " NOT" : "") + " but found "
                    + keyword.describe());
        }
        return new Parsed(new PredicateNodes.IsNull(value.node(), negated), Kind.CONDITION, value.column());
    }

    private Parsed additive() {
        Parsed first = multiplicative();
        if (peek().type() != Token.Type.PLUS && peek().type() != Token.Type.MINUS) {
            return first;
        }
        List<ArithmeticOperator> operators = new ArrayList<>();
        List<Operand> operands = new ArrayList<>();
        while (peek().type() == Token.Type.PLUS || peek().type() == Token.Type.MINUS) {
            Token operator = next();
            requireNumeric(first, "'" + operator.text() + "' needs numbers");
            operators.add(operator.type() == Token.Type.PLUS ? ArithmeticOperator.ADD : ArithmeticOperator.SUBTRACT);
            Parsed operand = multiplicative();
            requireNumeric(operand, "'" + operator.text() + "' needs numbers");
            operands.add(operand.node());
        }
        return chain(first, operators, operands);
    }

    private Parsed multiplicative() {
        Parsed first = unary();
        if (peek().type() != Token.Type.STAR && peek().type() != Token.Type.SLASH) {
            return first;
        }
        List<ArithmeticOperator> operators = new ArrayList<>();
        List<Operand> operands = new ArrayList<>();
        while (peek().type() == Token.Type.STAR || peek().type() == Token.Type.SLASH) {
            Token operator = next();
            requireNumeric(first, "'" + operator.text() + "' needs numbers");
            operators.add(operator.type() == Token.Type.STAR ? ArithmeticOperator.MULTIPLY : ArithmeticOperator.DIVIDE);
            Parsed operand = unary();
            requireNumeric(operand, "'" + operator.text() + "' needs numbers");
            operands.add(operand.node());
        }
        return chain(first, operators, operands);
    }

    private static Parsed chain(Parsed first, List<ArithmeticOperator> operators, List<Operand> operands) {
        return new Parsed(new ValueNodes.ArithmeticChain(first.node(), operators.toArray(ArithmeticOperator[]::new),
                operands.toArray(Operand[]::new)), Kind.NUMBER, first.column());
    }

    private Parsed unary() {
        Token sign = peek();
        if (sign.type() != Token.Type.PLUS && sign.type() != Token.Type.MINUS) {
            return primary();
        }
        index++;
        boolean minus = sign.type() == Token.Type.MINUS;
        Token literal = peek();
        if (literal.type() == Token.Type.EXACT_NUMBER || literal.type() == Token.Type.APPROXIMATE_NUMBER) {
            // A signed literal such as -957 is one constant; this is also the only way to write Long.MIN_VALUE.
            index++;
            Object value = minus ? negatedLiteral(literal) : numericLiteral(literal);
            return new Parsed(new ValueNodes.Literal(value), Kind.NUMBER, sign.column());
        }
        enterNesting(sign);
        Parsed operand = unary();
        nesting--;
        requireNumeric(operand, "unary '" + sign.text() + "' needs a number");
        Operand node = minus ? new ValueNodes.Negate(operand.node()) : new ValueNodes.UnaryPlus(operand.node());
        return new Parsed(node, Kind.NUMBER, sign.column());
    }

    private Parsed primary() {
        Token token = next();
        switch (token.type()) {
            case IDENTIFIER:
                return new Parsed(new ValueNodes.Property(token.text()), Kind.ANY, token.column(), true);
            case STRING:
                return new Parsed(new ValueNodes.Literal(token.value()), Kind.STRING, token.column());
            case EXACT_NUMBER:
            case APPROXIMATE_NUMBER:
                return new Parsed(new ValueNodes.Literal(numericLiteral(token)), Kind.NUMBER, token.column());
            case TRUE:
                return new Parsed(new ValueNodes.Literal(Boolean.TRUE), Kind.CONDITION, token.column());
            case FALSE:
                return new Parsed(new ValueNodes.Literal(Boolean.FALSE), Kind.CONDITION, token.column());
            case LEFT_PAREN: {
                enterNesting(token);
                Parsed inner = orExpression();
                Token close = peek();
                if (!accept(Token.Type.RIGHT_PAREN)) {
                    throw error(close, "expected ')' to close the '(' at column " + token.column() + " but found "
                            + close.describe());
                }
                nesting--;
                return new Parsed(inner.node(), inner.kind(), token.column(), inner.identifier());
            }
            case NULL:
                throw error(token, "expected a value but found " + token.describe()
                        + "; NULL may only appear in 'IS NULL' or 'IS NOT NULL' (e.g. color IS NULL)");
            default:
                if (token.type().isKeyword()) {
                    throw error(token, "expected a value but found " + token.describe() + ", a reserved word; NULL,"
                            + " TRUE, FALSE, NOT, AND, OR, BETWEEN, LIKE, IN, IS and ESCAPE cannot be identifiers");
                }
                throw error(token, "expected a value but found " + token.describe());
        }
    }

    private Object numericLiteral(Token token) {
        if (token.value() instanceof BigInteger) {
            throw error(token, "malformed number '" + token.text() + "': it is outside the range of a long ("
                    + Long.MIN_VALUE + " to " + Long.MAX_VALUE + ")");
        }
        return token.value();
    }

    private Object negatedLiteral(Token token) {
        Object value = token.value();
        if (value instanceof BigInteger) {
            return Long.MIN_VALUE;
        }
        return Numbers.negate(value);
    }

    /** Turns a parsed operand into a condition, or reports why it cannot be one. */
    private Condition condition(Parsed parsed, String rule) {
        if (parsed.node() instanceof Condition condition) {
            return condition;
        }
        if (parsed.kind() == Kind.CONDITION || parsed.kind() == Kind.ANY) {
            // A boolean literal, or an identifier that must hold a Boolean for the message to match.
            return new LogicalNodes.BooleanValue(parsed.node());
        }
        throw new InvalidSelectorException(expression, parsed.column(),
                rule + ", but this is " + parsed.kind().description);
    }

    /**
     * Refuses a comparison whose operands' types are known here and can never be compared (Jakarta Messaging
     * 3.1, 3.8.1.2: like types only, and strings and booleans with {@code =} and {@code <>} only): a string, a
     * number and a boolean against each other, or a string or boolean ordered with {@code <}, {@code <=},
     * {@code >} or {@code >=}. Such a selector could never match, so it is a mistake to report at once. An
     * identifier's type is only known per message: comparisons of identifiers with numbers, or with each other,
     * stay and evaluate to FALSE (or UNKNOWN for NULL) when the message's types do not fit.
     */
    private void checkComparable(Parsed left, ComparisonOperator operator, Parsed right, Token token) {
        boolean ordering = operator != ComparisonOperator.EQUAL && operator != ComparisonOperator.NOT_EQUAL;
        for (Parsed side : new Parsed[] {left, right}) {
            if (ordering && (side.kind() == Kind.STRING || side.kind() == Kind.CONDITION)) {
                throw new InvalidSelectorException(expression, side.column(), "'" + operator.symbol()
                        + "' cannot order " + side.kind().description + "; strings and booleans compare only with"
                        + " '=' and '<>'");
            }
        }
        if (left.kind() != Kind.ANY && right.kind() != Kind.ANY && left.kind() != right.kind()) {
            throw new InvalidSelectorException(expression, token.column(), "'" + operator.symbol() + "' compares "
                    + left.kind().description + " with " + right.kind().description + "; only values of the same"
                    + " type (numbers, strings or booleans) can be compared");
        }
    }

    private void requireNumeric(Parsed parsed, String rule) {
        if (parsed.kind() != Kind.NUMBER && parsed.kind() != Kind.ANY) {
            throw new InvalidSelectorException(expression, parsed.column(),
                    rule + ", but this is " + parsed.kind().description);
        }
    }

    private void requireIdentifier(Parsed parsed, Token operator) {
        if (!parsed.identifier()) {
            String name = operator.type() == Token.Type.IS ? "IS NULL" : operator.type().name();
            throw new InvalidSelectorException(expression, parsed.column(), name
                    + " applies to an identifier (a property or header name), but its left side is "
                    + parsed.kind().description);
        }
    }

    private void enterNesting(Token token) {
        if (++nesting > MAX_NESTING) {
            throw error(token, "the selector nests parentheses, NOT or signs more than " + MAX_NESTING
                    + " levels deep; simplify it");
        }
    }

    private static ComparisonOperator comparisonOperator(Token.Type type) {
        return switch (type) {
            case EQUAL -> ComparisonOperator.EQUAL;
            case NOT_EQUAL -> ComparisonOperator.NOT_EQUAL;
            case LESS -> ComparisonOperator.LESS;
            case LESS_OR_EQUAL -> ComparisonOperator.LESS_OR_EQUAL;
            case GREATER -> ComparisonOperator.GREATER;
            case GREATER_OR_EQUAL -> ComparisonOperator.GREATER_OR_EQUAL;
            default -> null;
        };
    }

    private Token peek() {
        return tokens.get(index);
    }

    private Token next() {
        Token token = tokens.get(index);
        if (token.type() != Token.Type.END) {
            index++;
        }
        return token;
    }

    private boolean accept(Token.Type type) {
        if (peek().type() == type) {
            index++;
            return true;
        }
        return false;
    }

    private InvalidSelectorException error(Token token, String reason) {
        return new InvalidSelectorException(expression, token.column(), reason);
    }
}
