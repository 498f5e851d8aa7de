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
public class MessageToStore extends MessageExt {

    private String propertiesString;
    private long tagsCode;
    private boolean forcedLater;

    /** The encoded properties set by the broker, or null to encode the map at put time. */
    public String getPropertiesString() {
        return propertiesString;
    }

    /** Sets the encoded properties to store as they are (they must match the map, which is not re-read). */
    public void setPropertiesString(String propertiesString) {
        this.propertiesString = propertiesString;
    }

    /**
     * Whether the put may answer before the record is on disk even under SYNC_FLUSH: the record reaches the disk
     * with the group commit's next force (another put's, or one of its own within the group commit's 10 ms round).
     * For records whose loss in a power failure costs a redelivery, never a message (acknowledgements).
     */
    public boolean isForcedLater() {
        return forcedLater;
    }

    public void setForcedLater(boolean forcedLater) {
        this.forcedLater = forcedLater;
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
            String error = MessageDecoder.checkEncodedProperties(propertiesString);
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
}
