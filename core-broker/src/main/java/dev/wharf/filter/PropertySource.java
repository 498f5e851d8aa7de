package dev.wharf.filter;

/**
 * Looks up the value a selector identifier refers to: an application property, a JMSX property or a header
 * such as {@code JMSType} or {@code JMSPriority}. The selector engine does not know which is which; the caller
 * maps names to values.
 *
 * <p>Values must be {@link String}, {@link Boolean}, {@link Byte}, {@link Short}, {@link Integer},
 * {@link Long}, {@link Float} or {@link Double}. {@code null} means the property is absent (SQL NULL). A value
 * of any other type is treated as present but incomparable: every comparison with it is UNKNOWN.
 *
 * <p>For headers the specification fixes the selector-visible values: {@code JMSDeliveryMode} is the string
 * {@code 'PERSISTENT'} or {@code 'NON_PERSISTENT'}, {@code JMSPriority} an int, {@code JMSTimestamp} a long of
 * milliseconds, and a null {@code JMSMessageID}, {@code JMSCorrelationID} or {@code JMSType} is NULL.
 */
@FunctionalInterface
public interface PropertySource {

    /** Returns the value of {@code name}, or {@code null} when the message has no such property. */
    Object get(String name);

    /**
     * Whether this source's strings are untyped text that may stand for numbers, as properties sent by the
     * low-level client are (every value there is a string, like RocketMQ's). When true, a string compared with a
     * number (=, &lt;&gt;, &lt;, &lt;=, &gt;, &gt;=, BETWEEN) is compared as the number it reads as, and as
     * incomparable when it reads as none. JMS messages carry their property types, so their sources answer false
     * and the specification's strict typing applies.
     */
    default boolean numericText() {
        return false;
    }
}
