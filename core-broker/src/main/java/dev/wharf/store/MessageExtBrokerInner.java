package dev.wharf.store;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import java.util.Map;

/**
 * What the broker hands the store: the message with topic, queue id, flag, body, properties, born/store
 * hosts, sys flag, reconsume times and prepared-transaction offset set. The store assigns queue offset,
 * commit-log offset, store time and message id.
 *
 * <p>Properties are stored as the encoded string {@code key\u0001value\u0002...}: either the one set with
 * {@link #setPropertiesString} (e.g. straight from a request, so it is not re-encoded) or, when none was set,
 * the encoding of the property map at put time. Not thread-safe.
 */
public class MessageExtBrokerInner extends MessageExt {

    private String propertiesString;
    private long tagsCode;

    /** The encoded properties set by the broker, or null to encode the map at put time. */
    public String getPropertiesString() {
        return propertiesString;
    }

    /** Sets the encoded properties to store as they are (they must match the map, which is not re-read). */
    public void setPropertiesString(String propertiesString) {
        this.propertiesString = propertiesString;
    }

    /** Tag hash (or, for the schedule topic, the delivery time); informational, the dispatcher recomputes it. */
    public long getTagsCode() {
        return tagsCode;
    }

    public void setTagsCode(long tagsCode) {
        this.tagsCode = tagsCode;
    }

    /**
     * Checks the properties and returns their encoding: the string set by the broker, else the map encoded now
     * (not cached, so a message object reused with changed properties is stored as it is now).
     *
     * @return the encoded string, never null
     * @throws IllegalArgumentException when a key or value contains a separator, with a sentence saying which
     */
    String encodedPropertiesChecked() {
        if (propertiesString != null) {
            String error = checkEncoded(propertiesString);
            if (error != null) {
                throw new IllegalArgumentException(error);
            }
            return propertiesString;
        }
        Map<String, String> properties = getProperties();
        String error = MessageDecoder.checkProperties(properties);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        return MessageDecoder.encodeProperties(properties);
    }

    /**
     * Checks an encoded properties string: every property is {@code key\u0001value\u0002} with a non-empty
     * key and exactly one {@code \u0001}, so a separator inside a key or value shows up as a malformed property.
     */
    static String checkEncoded(String encoded) {
        int start = 0;
        int length = encoded.length();
        while (start < length) {
            int end = encoded.indexOf(MessageDecoder.PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = length;
            }
            int sep = encoded.indexOf(MessageDecoder.NAME_VALUE_SEPARATOR, start);
            if (sep < 0 || sep >= end) {
                return "A message property near \"" + printable(encoded.substring(start, end))
                        + "\" has no name/value separator; keys and values must not contain \\u0001 or \\u0002.";
            }
            if (sep == start) {
                return "A message property has an empty name; give every property a name.";
            }
            if (encoded.indexOf(MessageDecoder.NAME_VALUE_SEPARATOR, sep + 1) >= 0
                    && encoded.indexOf(MessageDecoder.NAME_VALUE_SEPARATOR, sep + 1) < end) {
                return "The value of message property \"" + encoded.substring(start, sep)
                        + "\" contains \\u0001 or \\u0002, which the store uses as separators; remove or encode them.";
            }
            start = end + 1;
        }
        return null;
    }

    private static String printable(String s) {
        String p = s.replace("\u0001", "\\u0001").replace("\u0002", "\\u0002");
        return p.length() > 40 ? p.substring(0, 40) + "..." : p;
    }
}
