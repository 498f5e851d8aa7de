package dev.wharf.filter;

/**
 * A node of a compiled selector that produces a value: a {@link String}, a {@link Boolean}, one of the
 * supported {@link Number} types, or {@code null} for SQL NULL / UNKNOWN. Nodes are immutable.
 */
interface Operand {

    Object value(PropertySource properties);
}
