package dev.wharf.jms.message;

import dev.wharf.common.message.MessageProperties;
import java.util.Locale;
import java.util.Set;

/**
 * Which names an application may give a message property, and which stored properties are not application
 * properties.
 *
 * <p>Jakarta Messaging 3.1, 3.5.1 "Property names": a property name obeys the rules for a selector identifier
 * (3.8.1.1): a Java identifier that is not {@code NULL}, {@code TRUE}, {@code FALSE}, {@code NOT}, {@code AND},
 * {@code OR}, {@code BETWEEN}, {@code LIKE}, {@code IN}, {@code IS} or {@code ESCAPE}. Selector keywords are case
 * insensitive, so {@code and} is refused as well. Names starting with {@code JMS} are header references unless
 * they start with {@code JMSX} (properties the specification defines, 3.5.9) or {@code JMS_} (provider-specific,
 * 3.5.10). Wharf adds three rules and says so in the exception: identifier-ignorable control characters are
 * refused (they cannot be typed in a selector, and two of them separate stored properties);
 * {@code JMS_Wharf_} names are Wharf's own; and the names the broker gives its own properties ({@code KEYS},
 * {@code TAGS}, {@code DELAY}, ...) are refused, because a user value under such a name would change what the
 * broker does with the message.
 */
final class PropertyNames {

    static final String JMSX_USER_ID = "JMSXUserID";
    static final String JMSX_APP_ID = "JMSXAppID";
    static final String JMSX_DELIVERY_COUNT = "JMSXDeliveryCount";
    static final String JMSX_GROUP_ID = "JMSXGroupID";
    static final String JMSX_GROUP_SEQ = "JMSXGroupSeq";
    static final String JMSX_PRODUCER_TXID = "JMSXProducerTXID";
    static final String JMSX_CONSUMER_TXID = "JMSXConsumerTXID";
    static final String JMSX_RCV_TIMESTAMP = "JMSXRcvTimestamp";
    static final String JMSX_STATE = "JMSXState";

    /** The JMSX properties the specification defines (3.5.9). */
    static final Set<String> JMSX_DEFINED = Set.of(JMSX_USER_ID, JMSX_APP_ID, JMSX_DELIVERY_COUNT, JMSX_GROUP_ID,
            JMSX_GROUP_SEQ, JMSX_PRODUCER_TXID, JMSX_CONSUMER_TXID, JMSX_RCV_TIMESTAMP, JMSX_STATE);

    /** Prefix of Wharf's provider-specific properties. */
    static final String WHARF_PREFIX = "JMS_Wharf_";

    private static final Set<String> RESERVED_WORDS = Set.of(
            "NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE");

    /** Property names the broker and the low-level client use for themselves. */
    private static final Set<String> SYSTEM = Set.of(
            MessageProperties.KEYS, MessageProperties.TAGS, MessageProperties.WAIT_STORE_MSG_OK,
            MessageProperties.DELAY_TIME_LEVEL, MessageProperties.DELIVER_TIME_MS, MessageProperties.DELAY_MS,
            MessageProperties.REAL_TOPIC, MessageProperties.REAL_QUEUE_ID, MessageProperties.TRANSACTION_PREPARED,
            MessageProperties.PRODUCER_GROUP, MessageProperties.TRANSACTION_ID,
            MessageProperties.TRANSACTION_CHECK_TIMES, MessageProperties.UNIQUE_CLIENT_MESSAGE_ID,
            MessageProperties.RETRY_TOPIC, MessageProperties.ORIGIN_MESSAGE_ID, MessageProperties.MAX_RECONSUME_TIMES,
            MessageProperties.FIRST_FAILURE_TIME, MessageProperties.CONSUME_START_TIME, MessageProperties.MIN_OFFSET,
            MessageProperties.MAX_OFFSET, WireProperties.PROPERTY_TYPES);

    private PropertyNames() {
    }

    /**
     * Checks a name an application gives a property.
     *
     * @throws IllegalArgumentException with a sentence naming the problem, as {@code Message}'s setters must
     */
    static void check(String name) {
        String problem = problem(name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** The reason {@code name} cannot be an application property name, or null when it can. */
    static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "A property name must not be " + (name == null ? "null" : "empty")
                    + "; give a name that is a Java identifier.";
        }
        if (!Character.isJavaIdentifierStart(name.charAt(0)) || Character.isIdentifierIgnorable(name.charAt(0))) {
            return "The property name \"" + printable(name) + "\" does not start with a letter, '_' or '$'; property"
                    + " names must be Java identifiers so that message selectors can refer to them.";
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!Character.isJavaIdentifierPart(c) || Character.isIdentifierIgnorable(c)) {
                return "The property name \"" + printable(name) + "\" contains '" + printable(String.valueOf(c))
                        + "' at position " + (i + 1) + "; property names must be Java identifiers (letters, digits,"
                        + " '_' and '$') so that message selectors can refer to them.";
            }
        }
        if (RESERVED_WORDS.contains(name.toUpperCase(Locale.ROOT))) {
            return "The property name \"" + name + "\" is a message selector keyword (NULL, TRUE, FALSE, NOT, AND,"
                    + " OR, BETWEEN, LIKE, IN, IS, ESCAPE); choose another name.";
        }
        if (name.startsWith("JMSX")) {
            return JMSX_DEFINED.contains(name) ? null : "The property name \"" + name + "\" starts with JMSX, which"
                    + " the specification reserves for its own properties " + JMSX_DEFINED + "; choose another name.";
        }
        if (name.startsWith(WHARF_PREFIX)) {
            return "The property name \"" + name + "\" starts with " + WHARF_PREFIX
                    + ", which Wharf reserves for itself; choose another name.";
        }
        if (name.startsWith("JMS") && !name.startsWith("JMS_")) {
            return "The property name \"" + name + "\" starts with JMS, which denotes a header field; set headers"
                    + " with the setJMS... methods and give application properties names that do not start with JMS.";
        }
        if (SYSTEM.contains(name)) {
            return "The property name \"" + name + "\" is used by the Wharf broker itself; choose another name.";
        }
        return null;
    }

    /** Whether a stored property belongs to the broker, the client or the JMS mapping rather than to the application. */
    static boolean isInternal(String name) {
        return SYSTEM.contains(name) || WireProperties.HEADER_PROPERTIES.contains(name) || name.startsWith(WHARF_PREFIX);
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || Character.isIdentifierIgnorable(c) || Character.isWhitespace(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
