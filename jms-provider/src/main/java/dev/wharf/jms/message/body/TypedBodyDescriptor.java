package dev.wharf.jms.message.body;

/**
 * Layout of the typed bodies of map and stream messages. All integers are big-endian.
 *
 * <pre>
 *  Map body                                   Stream body
 * +-------------+-----------+               +-------------+-----------+
 * | VERSION (1) | COUNT (4) |               | VERSION (1) | COUNT (4) |
 * +-------------+-----------+               +-------------+-----------+
 * | NAME: STRING payload    |  } COUNT      | VALUE                   |  } COUNT
 * | VALUE                   |  } times      +-------------------------+  } times
 * +-------------------------+
 *
 *  VALUE = TYPE (1) followed by its payload:
 *  +------+---------+------------------------------------------------------------+
 *  | TYPE | name    | payload                                                    |
 *  +------+---------+------------------------------------------------------------+
 *  |   0  | NULL    | none                                                       |
 *  |   1  | BOOLEAN | 1 byte, 0 or 1                                             |
 *  |   2  | BYTE    | 1 byte                                                     |
 *  |   3  | SHORT   | 2 bytes                                                    |
 *  |   4  | CHAR    | 2 bytes (UTF-16 code unit)                                 |
 *  |   5  | INT     | 4 bytes                                                    |
 *  |   6  | LONG    | 8 bytes                                                    |
 *  |   7  | FLOAT   | 4 bytes, raw IEEE 754 bits (NaN payloads and -0.0 survive) |
 *  |   8  | DOUBLE  | 8 bytes, raw IEEE 754 bits                                 |
 *  |   9  | STRING  | LENGTH (4) + LENGTH bytes of modified UTF-8                |
 *  |  10  | BYTES   | LENGTH (4) + LENGTH bytes                                  |
 *  +------+---------+------------------------------------------------------------+
 * </pre>
 *
 * Strings use Java's modified UTF-8 (NUL as two bytes, each UTF-16 code unit encoded on its own) with a 4-byte
 * length instead of {@code DataOutput.writeUTF}'s 2-byte one, so every {@code String}, including one with
 * unpaired surrogates, comes back exactly and long strings are not limited to 65535 bytes.
 */
public final class TypedBodyDescriptor {

    /** The only layout version so far; a reader refuses others instead of misreading them. */
    public static final byte VERSION = 1;

    public static final int VERSION_OFFSET = 0;
    public static final int COUNT_OFFSET = 1;
    /** Offset of the first entry (map) or value (stream). */
    public static final int ENTRIES_OFFSET = 5;

    public static final byte TYPE_NULL = 0;
    public static final byte TYPE_BOOLEAN = 1;
    public static final byte TYPE_BYTE = 2;
    public static final byte TYPE_SHORT = 3;
    public static final byte TYPE_CHAR = 4;
    public static final byte TYPE_INT = 5;
    public static final byte TYPE_LONG = 6;
    public static final byte TYPE_FLOAT = 7;
    public static final byte TYPE_DOUBLE = 8;
    public static final byte TYPE_STRING = 9;
    public static final byte TYPE_BYTES = 10;

    /** Size of the LENGTH field of STRING and BYTES payloads. */
    public static final int LENGTH_SIZE = 4;

    private TypedBodyDescriptor() {
    }

    /** Payload size of a fixed-size type, or -1 for NULL's absent payload and for variable-size types. */
    public static int fixedPayloadSize(byte type) {
        return switch (type) {
            case TYPE_BOOLEAN, TYPE_BYTE -> 1;
            case TYPE_SHORT, TYPE_CHAR -> 2;
            case TYPE_INT, TYPE_FLOAT -> 4;
            case TYPE_LONG, TYPE_DOUBLE -> 8;
            default -> -1;
        };
    }
}
