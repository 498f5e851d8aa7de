package dev.wharf.protocol.body;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageDecoder;

/**
 * Body of SEND_BATCH_MESSAGE: the messages of one batch (same topic) back to back.
 *
 * <pre>
 * +---------------+----------+----------------+-------------+---------------------+-------------------+
 * | TOTALSIZE (4) | FLAG (4) | BODYLENGTH (4) | BODY (n)    | PROPERTIESLENGTH (2)| PROPERTIES (m)    |
 * +---------------+----------+----------------+-------------+---------------------+-------------------+
 * </pre>
 * TOTALSIZE counts the whole entry including itself.
 *
 * <p>RocketMQ's clients send their batches in the layout of their own message encoding, which has two more words
 * (both sent as 0) and is read by {@link #decodeRocketMq}:
 * <pre>
 * +---------------+---------------+-------------+----------+----------------+----------+---------------------+----------------+
 * | TOTALSIZE (4) | MAGICCODE (4) | BODYCRC (4) | FLAG (4) | BODYLENGTH (4) | BODY (n) | PROPERTIESLENGTH (2)| PROPERTIES (m) |
 * +---------------+---------------+-------------+----------+----------------+----------+---------------------+----------------+
 * </pre>
 */
public final class BatchMessageCodec {

    private static final int FIXED = 4 + 4 + 4 + 2;

    private BatchMessageCodec() {
    }

    /** One decoded entry; properties stay encoded (the broker stores them as they are). */
    public record Entry(int flag, byte[] body, String properties) {
    }

    public static byte[] encode(List<? extends Message> messages) {
        List<String> encoded = new ArrayList<>(messages.size());
        for (Message m : messages) {
            encoded.add(MessageDecoder.encodeProperties(m.getProperties()));
        }
        return encode(messages, encoded);
    }

    /**
     * Encodes a batch whose properties are already encoded ({@code encodedProperties.get(i)} is message i's, as
     * {@link MessageDecoder#encodeProperties} gives them).
     */
    public static byte[] encode(List<? extends Message> messages, List<String> encodedProperties) {
        List<byte[]> props = new ArrayList<>(messages.size());
        int size = 0;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            byte[] p = encodedProperties.get(i).getBytes(StandardCharsets.UTF_8);
            if (p.length > Short.MAX_VALUE) {
                throw new IllegalArgumentException("The properties of a message in the batch are " + p.length
                        + " bytes; the limit is " + Short.MAX_VALUE + ".");
            }
            props.add(p);
            size += FIXED + (m.getBody() == null ? 0 : m.getBody().length) + p.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            byte[] body = m.getBody() == null ? new byte[0] : m.getBody();
            byte[] p = props.get(i);
            out.putInt(FIXED + body.length + p.length);
            out.putInt(m.getFlag());
            out.putInt(body.length);
            out.put(body);
            out.putShort((short) p.length);
            out.put(p);
        }
        return out.array();
    }

    /**
     * Decodes a batch body.
     *
     * @throws IllegalArgumentException when an entry is truncated or its sizes disagree
     */
    public static List<Entry> decode(byte[] batch) {
        List<Entry> out = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(batch);
        while (in.hasRemaining()) {
            int start = in.position();
            if (in.remaining() < FIXED) {
                throw new IllegalArgumentException("The batch body is truncated at byte " + start + ".");
            }
            int total = in.getInt();
            int flag = in.getInt();
            int bodyLength = in.getInt();
            if (total < FIXED || total > in.remaining() + 12 || bodyLength < 0 || bodyLength > total - FIXED) {
                throw new IllegalArgumentException("The batch entry at byte " + start + " has inconsistent sizes.");
            }
            byte[] body = new byte[bodyLength];
            in.get(body);
            int propsLength = in.getShort() & 0xFFFF;
            if (FIXED + bodyLength + propsLength != total) {
                throw new IllegalArgumentException("The batch entry at byte " + start + " has inconsistent sizes.");
            }
            byte[] props = new byte[propsLength];
            in.get(props);
            out.add(new Entry(flag, body, new String(props, StandardCharsets.UTF_8)));
        }
        return out;
    }

    /** Fixed bytes of an entry in RocketMQ's layout: total, magic, body CRC, flag, body length, properties length. */
    private static final int ROCKETMQ_FIXED = 4 + 4 + 4 + 4 + 4 + 2;

    /**
     * Decodes a batch body sent by a RocketMQ client (the second layout above). The magic and CRC words carry
     * nothing the broker uses and are not checked: the store computes the body CRC itself.
     *
     * @throws IllegalArgumentException when an entry is truncated or its sizes disagree
     */
    public static List<Entry> decodeRocketMq(byte[] batch) {
        List<Entry> out = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(batch);
        while (in.hasRemaining()) {
            int start = in.position();
            if (in.remaining() < ROCKETMQ_FIXED) {
                throw new IllegalArgumentException("The batch body is truncated at byte " + start + ".");
            }
            int total = in.getInt();
            in.getInt(); // magic code
            in.getInt(); // body CRC
            int flag = in.getInt();
            int bodyLength = in.getInt();
            if (total < ROCKETMQ_FIXED || total > batch.length - start || bodyLength < 0
                    || bodyLength > total - ROCKETMQ_FIXED) {
                throw new IllegalArgumentException("The batch entry at byte " + start + " has inconsistent sizes"
                        + " (total " + total + ", body " + bodyLength + ").");
            }
            byte[] body = new byte[bodyLength];
            in.get(body);
            int propsLength = in.getShort() & 0xFFFF;
            if (ROCKETMQ_FIXED + bodyLength + propsLength != total) {
                throw new IllegalArgumentException("The batch entry at byte " + start + " has inconsistent sizes"
                        + " (total " + total + ", body " + bodyLength + ", properties " + propsLength + ").");
            }
            byte[] props = new byte[propsLength];
            in.get(props);
            out.add(new Entry(flag, body, new String(props, StandardCharsets.UTF_8)));
        }
        return out;
    }
}
