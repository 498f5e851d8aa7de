package dev.wharf.jms.message;

import jakarta.jms.MessageFormatException;

/**
 * The value conversion tables of the specification: properties (Jakarta Messaging 3.1, 3.5.4 "Property value
 * conversion") and {@code MapMessage}/{@code StreamMessage} bodies (3.11.3 "Conversions provided by StreamMessage
 * and MapMessage"). The body table is the property table plus {@code char} (readable as char and String) and
 * {@code byte[]} (readable only as byte[]); properties never hold those two, so one table serves both.
 *
 * <pre>
 *  written as | readable as
 *  boolean    | boolean, String
 *  byte       | byte, short, int, long, String
 *  short      | short, int, long, String
 *  char       | char, String
 *  int        | int, long, String
 *  long       | long, String
 *  float      | float, double, String
 *  double     | double, String
 *  String     | boolean, byte, short, int, long, float, double, String
 *  byte[]     | byte[]
 * </pre>
 *
 * A conversion the table does not mark throws {@link MessageFormatException}. A String that the target's
 * {@code valueOf(String)} does not accept throws that method's {@link NumberFormatException}. A null value (an
 * absent property or entry, or a null written to a body) is read "as calling the primitive's valueOf(String) with
 * null": false for boolean, {@link NumberFormatException} for the integral types, {@link NullPointerException}
 * for float and double (what {@code Float.valueOf(null)} throws) and, since char has no such method,
 * {@link NullPointerException} for char, as the specification demands.
 */
final class ValueConversions {

    /*
     * The numeric rows of the table: a number is readable as its own type and every wider one of its family
     * (integral or floating point). A type's width says both: the tens its family, the units its rank in it.
     */
    private static final int BYTE = 1;
    private static final int SHORT = 2;
    private static final int INT = 3;
    private static final int LONG = 4;
    private static final int FLOAT = 11;
    private static final int DOUBLE = 12;

    private ValueConversions() {
    }

    /** One of the conversions below, for readers that treat every target type alike. */
    @FunctionalInterface
    interface Conversion<T> {
        T convert(Object v, String what) throws MessageFormatException;
    }

    static boolean toBoolean(Object v, String what) throws MessageFormatException {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v == null || v instanceof String) {
            return Boolean.valueOf((String) v);
        }
        throw refused(v, "boolean", what);
    }

    static byte toByte(Object v, String what) throws MessageFormatException {
        return v == null || v instanceof String ? Byte.valueOf((String) v)
                : widening(v, BYTE, "byte", what).byteValue();
    }

    static short toShort(Object v, String what) throws MessageFormatException {
        return v == null || v instanceof String ? Short.valueOf((String) v)
                : widening(v, SHORT, "short", what).shortValue();
    }

    static char toChar(Object v, String what) throws MessageFormatException {
        if (v instanceof Character c) {
            return c;
        }
        if (v == null) {
            throw new NullPointerException(what + " is null, and a null value cannot be read as a char.");
        }
        throw refused(v, "char", what);
    }

    static int toInt(Object v, String what) throws MessageFormatException {
        return v == null || v instanceof String ? Integer.valueOf((String) v)
                : widening(v, INT, "int", what).intValue();
    }

    static long toLong(Object v, String what) throws MessageFormatException {
        return v == null || v instanceof String ? Long.valueOf((String) v)
                : widening(v, LONG, "long", what).longValue();
    }

    static float toFloat(Object v, String what) throws MessageFormatException {
        return v == null || v instanceof String ? Float.valueOf((String) v)
                : widening(v, FLOAT, "float", what).floatValue();
    }

    static double toDouble(Object v, String what) throws MessageFormatException {
        return v == null || v instanceof String ? Double.valueOf((String) v)
                : widening(v, DOUBLE, "double", what).doubleValue();
    }

    private static int width(Object v) {
        if (v instanceof Byte) {
            return BYTE;
        } else if (v instanceof Short) {
            return SHORT;
        } else if (v instanceof Integer) {
            return INT;
        } else if (v instanceof Long) {
            return LONG;
        } else if (v instanceof Float) {
            return FLOAT;
        } else if (v instanceof Double) {
            return DOUBLE;
        }
        return 0;
    }

    /** The number, when its type is of the target's family and no wider than the target; else refused. */
    private static Number widening(Object v, int target, String targetName, String what)
            throws MessageFormatException {
        int width = width(v);
        if (width == 0 || width > target || width / 10 != target / 10) {
            throw refused(v, targetName, what);
        }
        return (Number) v;
    }

    /** Any value but byte[] as its {@code String.valueOf} form; null stays null. */
    static String toString(Object v, String what) throws MessageFormatException {
        if (v == null || v instanceof String) {
            return (String) v;
        }
        if (v instanceof byte[]) {
            throw refused(v, "String", what);
        }
        return String.valueOf(v);
    }

    /** A byte[] value as it is (callers copy); null stays null. */
    static byte[] toBytes(Object v, String what) throws MessageFormatException {
        if (v == null || v instanceof byte[]) {
            return (byte[]) v;
        }
        throw refused(v, "byte[]", what);
    }

    /** The type name the specification uses for a value: "int", "String", "byte[]", ... */
    static String typeName(Object v) {
        if (v instanceof Boolean) {
            return "boolean";
        } else if (v instanceof Byte) {
            return "byte";
        } else if (v instanceof Short) {
            return "short";
        } else if (v instanceof Character) {
            return "char";
        } else if (v instanceof Integer) {
            return "int";
        } else if (v instanceof Long) {
            return "long";
        } else if (v instanceof Float) {
            return "float";
        } else if (v instanceof Double) {
            return "double";
        } else if (v instanceof String) {
            return "String";
        } else if (v instanceof byte[]) {
            return "byte[]";
        }
        return v == null ? "null" : v.getClass().getName();
    }

    private static String readableAs(Object v) {
        return switch (typeName(v)) {
            case "boolean" -> "boolean or String";
            case "byte" -> "byte, short, int, long or String";
            case "short" -> "short, int, long or String";
            case "char" -> "char or String";
            case "int" -> "int, long or String";
            case "long" -> "long or String";
            case "float" -> "float, double or String";
            case "double" -> "double or String";
            case "byte[]" -> "byte[] only";
            default -> "String";
        };
    }

    private static MessageFormatException refused(Object v, String target, String what) {
        return new MessageFormatException(what + " holds " + article(typeName(v)) + " " + typeName(v)
                + " value, which cannot be read as " + article(target) + " " + target + "; read it as "
                + readableAs(v) + ".");
    }

    private static String article(String type) {
        return type.startsWith("int") ? "an" : "a";
    }
}
