package dev.wharf.filter;

/**
 * SQL three-valued logic. The AND, OR and NOT tables are the ones the Jakarta Messaging specification gives
 * for message selectors; UNKNOWN is what any comparison or arithmetic involving NULL produces.
 */
enum Truth {
    TRUE,
    FALSE,
    UNKNOWN;

    static Truth of(boolean value) {
        return value ? TRUE : FALSE;
    }

    /** A {@link Boolean} value is TRUE or FALSE; anything else (NULL, a number, a string) is UNKNOWN. */
    static Truth ofValue(Object value) {
        if (value == Boolean.TRUE) {
            return TRUE;
        }
        if (value instanceof Boolean b) {
            return b ? TRUE : FALSE;
        }
        return UNKNOWN;
    }

    Truth and(Truth other) {
        if (this == FALSE || other == FALSE) {
            return FALSE;
        }
        return this == TRUE && other == TRUE ? TRUE : UNKNOWN;
    }

    Truth or(Truth other) {
        if (this == TRUE || other == TRUE) {
            return TRUE;
        }
        return this == FALSE && other == FALSE ? FALSE : UNKNOWN;
    }

    Truth not() {
        return switch (this) {
            case TRUE -> FALSE;
            case FALSE -> TRUE;
            case UNKNOWN -> UNKNOWN;
        };
    }

    /** The value of this truth when used as an operand: a cached {@link Boolean}, or {@code null} for UNKNOWN. */
    Boolean asValue() {
        return switch (this) {
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case UNKNOWN -> null;
        };
    }
}
