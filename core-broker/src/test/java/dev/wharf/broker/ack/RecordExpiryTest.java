package dev.wharf.broker.ack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordExpiryTest {

    /** A record with the fields the reader needs: body length, body, topic, properties. */
    private static ByteBuffer record(Map<String, String> properties) {
        byte[] body = "body".getBytes(StandardCharsets.UTF_8);
        byte[] topic = "T".getBytes(StandardCharsets.UTF_8);
        byte[] props = MessageDecoder.encodeProperties(properties).getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(MessageRecord.totalSize(body.length, topic.length, props.length));
        b.putInt(MessageRecord.BODY_LENGTH_OFFSET, body.length);
        b.put(MessageRecord.BODY_OFFSET, body);
        b.put(MessageRecord.topicLengthOffset(body.length), (byte) topic.length);
        b.put(MessageRecord.topicLengthOffset(body.length) + 1, topic);
        int propsAt = MessageRecord.propertiesLengthOffset(body.length, topic.length);
        b.putShort(propsAt, (short) props.length);
        b.put(propsAt + 2, props);
        return b;
    }

    @Test
    void readsTheExpirationAmongOtherProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("JMSExpirationX", "5");
        props.put("a", "b");
        props.put("JMSExpiration", "1700000000123");
        props.put("z", "\u00e9t\u00e9");
        assertThat(RecordExpiry.expiration(record(props))).isEqualTo(1_700_000_000_123L);
    }

    @Test
    void absentZeroOrMalformedMeansNever() {
        assertThat(RecordExpiry.expiration(record(Map.of()))).isZero();
        assertThat(RecordExpiry.expiration(record(Map.of("JMSExpiration", "0")))).isZero();
        assertThat(RecordExpiry.expiration(record(Map.of("JMSExpiration", "soon")))).isZero();
        assertThat(RecordExpiry.expiration(record(Map.of("xJMSExpiration", "12")))).isZero();
    }
}
