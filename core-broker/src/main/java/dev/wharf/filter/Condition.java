package dev.wharf.filter;

/**
 * A node of a compiled selector that produces a truth value. A condition can also stand where a value is
 * expected (for example {@code (a > 1) = FALSE}); it then yields a {@link Boolean}, or {@code null} for UNKNOWN.
 */
interface Condition extends Operand {

    Truth test(PropertySource properties);

    @Override
    default Object value(PropertySource properties) {
        return test(properties).asValue();
    }
}
