package dev.wharf.jms.message;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Writes a message into the commit-log record layout and decodes it with the consumer's decoder, so that tests
 * see exactly what a consumer would: properties through the store's separator encoding, topic and body through
 * the record.
 */
final class StoredRecords {

    private StoredRecords() {
    }

    static MessageExt storeAndRead(Message m, long bornTimestamp) {
        byte[] body = m.getBody() == null ? new byte[0] : m.getBody();
        byte[] topic = m.getTopic().getBytes(StandardCharsets.UTF_8);
        String problem = MessageDecoder.checkProperties(m.getProperties());
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        byte[] props = MessageDecoder.encodeProperties(m.getProperties()).getBytes(StandardCharsets.UTF_8);
        if (props.length > MessageRecord.MAX_PROPERTIES_LENGTH) {
            throw new IllegalArgumentException("properties too long: " + props.length);
        }
        int total = MessageRecord.totalSize(body.length, topic.length, props.length);
        ByteBuffer b = ByteBuffer.allocate(total);
        b.putInt(total);
        b.putInt(MessageRecord.MESSAGE_MAGIC_CODE);
        b.putInt(MessageDecoder.crc32(body));
        b.putInt(3); // queue id
        b.putInt(m.getFlag());
        b.putLong(42); // queue offset
        b.putLong(4096); // commit-log offset
        b.putInt(0); // sys flag
        b.putLong(bornTimestamp);
        b.putLong(0x7F00000100001F90L); // born host 127.0.0.1:8080
        b.putLong(bornTimestamp + 1);
        b.putLong(0x7F00000100002694L); // store host 127.0.0.1:9876
        b.putInt(0); // reconsume times
        b.putLong(0); // prepared transaction offset
        b.putInt(body.length);
        b.put(body);
        b.put((byte) topic.length);
        b.put(topic);
        b.putShort((short) props.length);
        b.put(props);
        b.flip();
        MessageExt ext = MessageDecoder.decode(b, true, true);
        if (ext == null) {
            throw new IllegalStateException("record did not decode");
        }
        return ext;
    }
}
