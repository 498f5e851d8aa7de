package dev.wharf.jms.message;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Names and encodings of the stored properties that carry JMS headers, property types and body information.
 * The broker evaluates selectors on these stored properties, so the names and formats here are a contract with
 * the broker; see {@link JmsMessageCodec} for the whole mapping.
 *
 * <p><b>Typed values.</b> A property value is stored as its string form ({@code Boolean.toString},
 * {@code Integer.toString}, ..., {@code Float.toString} and {@code Double.toString}, which round-trip every
 * value exactly, including -0.0, the infinities and extreme values; NaN comes back as the canonical NaN). The
 * types of all non-String properties are listed in the one property {@link #PROPERTY_TYPES} as
 * {@code name:T,name:T} with T one of {@code Z} boolean, {@code B} byte, {@code S} short, {@code I} int,
 * {@code J} long, {@code F} float, {@code D} double. Names are Java identifiers and so never contain ':' or ','.
 *
 * <p><b>Separators.</b> The store separates properties with \u0001 and \u0002. String values (application
 * properties, JMSType, JMSCorrelationID, JMSXGroupID) may contain any character, so they are encoded
 * reversibly rather than refused: a value containing \u0000, \u0001 or \u0002 is stored with each of those
 * characters replaced by \u0000 followed by '0', '1' or '2'; any other value is stored unchanged. A stored value
 * therefore contains \u0000 exactly when it was encoded. Refusing such values would make a message unsendable
 * for a reason the specification does not know; the price is that a selector comparing such a value with a
 * literal does not match (the broker sees the encoded form), which only affects values with these three control
 * characters. Property names cannot contain them ({@link PropertyNames} refuses them).
 */
public final class WireProperties {

    /** Types of the non-String properties, {@code name:T,...}; the broker reads the same key. */
    public static final String PROPERTY_TYPES = dev.wharf.common.message.MessageProperties.PROPERTY_TYPES;
    /** {@code text}, {@code bytes}, {@code map}, {@code stream}, {@code object} or {@code message}. */
    public static final String BODY_TYPE = "JMS_Wharf_BodyType";
    /** "true" when the text or object of a text or object message is null (the stored body is then empty). */
    public static final String NULL_BODY = "JMS_Wharf_NullBody";
    /** Base64 of a correlation id set as bytes, so that the bytes come back exactly. */
    public static final String CORRELATION_ID_BYTES = "JMS_Wharf_CorrelationIDBytes";

    /**
     * The id of the connection that sent the message, so that a {@code noLocal} consumer can recognise its own
     * connection's messages (Jakarta Messaging 3.1, 8.3 "noLocal").
     */
    public static final String CONNECTION_ID = "JMS_Wharf_ConnectionId";

    /**
     * The client id of the connection that sent the message, when it had one: a {@code noLocal} durable
     * subscription also skips what other connections with its client id published (8.3.3), for instance while
     * the subscriber was away.
     */
    public static final String CLIENT_ID = "JMS_Wharf_ClientId";

    /** On half messages: the process that started the transaction (answers check-backs about it). */
    public static final String TRANSACTION_OWNER = "JMS_Wharf_TxOwner";

    public static final String DELIVERY_MODE = "JMSDeliveryMode";
    public static final String PRIORITY = "JMSPriority";
    public static final String CORRELATION_ID = "JMSCorrelationID";
    public static final String EXPIRATION = "JMSExpiration";
    public static final String DELIVERY_TIME = "JMSDeliveryTime";
    /**
     * The JMSTimestamp the send set (0 when the producer disabled timestamps). The record's born timestamp is
     * taken later, by the client, so it can differ; the receiver must see what the sender saw (3.4.4).
     */
    public static final String TIMESTAMP = "JMSTimestamp";
    public static final String REPLY_TO = "JMSReplyTo";
    public static final String DESTINATION = "JMSDestination";

    public static final String PERSISTENT = "PERSISTENT";
    public static final String NON_PERSISTENT = "NON_PERSISTENT";

    /** Stored properties that hold headers rather than application properties. */
    static final Set<String> HEADER_PROPERTIES = Set.of(DELIVERY_MODE, PRIORITY, CORRELATION_ID, EXPIRATION,
            DELIVERY_TIME, REPLY_TO, DESTINATION, TIMESTAMP);

    private static final char ESCAPE = '\u0000';

    private WireProperties() {
    }

    /** The type letter of a non-String property value, or 0 for String. */
    static char typeCode(Object value) {
        if (value instanceof Boolean) {
            return 'Z';
        } else if (value instanceof Byte) {
            return 'B';
        } else if (value instanceof Short) {
            return 'S';
        } else if (value instanceof Integer) {
            return 'I';
        } else if (value instanceof Long) {
            return 'J';
        } else if (value instanceof Float) {
            return 'F';
        } else if (value instanceof Double) {
            return 'D';
        }
        return 0;
    }

    /** The value a stored string stands for under the given type letter; the string itself when it does not parse. */
    static Object parse(char type, String s) {
        try {
            return switch (type) {
                case 'Z' -> {
                    if ("true".equals(s) || "false".equals(s)) {
                        yield Boolean.valueOf(s);
                    }
                    yield s;
                }
                case 'B' -> Byte.valueOf(s);
                case 'S' -> Short.valueOf(s);
                case 'I' -> Integer.valueOf(s);
                case 'J' -> Long.valueOf(s);
                case 'F' -> Float.valueOf(s);
                case 'D' -> Double.valueOf(s);
                default -> s;
            };
        } catch (NumberFormatException e) {
            // A sender that is not this codec wrote a value that does not match its declared type: keep the text.
            return s;
        }
    }

    /** Parses {@code name:T,name:T}; malformed entries are skipped. */
    static Map<String, Character> parseTypes(String list) {
        Map<String, Character> types = new HashMap<>();
        if (list == null || list.isEmpty()) {
            return types;
        }
        int start = 0;
        while (start < list.length()) {
            int end = list.indexOf(',', start);
            if (end < 0) {
                end = list.length();
            }
            int colon = list.lastIndexOf(':', end - 1);
            if (colon > start && colon == end - 2) {
                types.put(list.substring(start, colon), list.charAt(end - 1));
            }
            start = end + 1;
        }
        return types;
    }

    /** Encodes a string so that it contains neither store separator (see the class comment). */
    public static String escape(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) > '\u0002') {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= '\u0002') {
                sb.append(ESCAPE).append((char) ('0' + c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Reverses {@link #escape}; a malformed escape is kept as it is. */
    public static String unescape(String s) {
        if (s == null || s.indexOf(ESCAPE) < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ESCAPE && i + 1 < s.length() && s.charAt(i + 1) >= '0' && s.charAt(i + 1) <= '2') {
                sb.append((char) (s.charAt(i + 1) - '0'));
                i++;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
