package dev.wharf.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The header in RocketMQ's binary encoding, serialize type {@value RemotingFrameDescriptor#SERIALIZE_TYPE_ROCKETMQ}
 * ("ROCKETMQ"), which RocketMQ clients send when {@code rocketmq.serialize.type=ROCKETMQ} is set. Wharf reads it
 * and answers such a request in the same encoding. Big-endian:
 *
 * <pre>
 *  offset  size  field
 *  0       2     code            int16 (signed, as RocketMQ writes it)
 *  2       1     language        int8: 0 JAVA, 1 CPP, 2 DOTNET, 3 PYTHON, 4 DELPHI, 5 ERLANG, 6 RUBY, 7 OTHER,
 *                                8 HTTP, 9 GO, 10 PHP, 11 OMS, 12 RUST, 13 NODE_JS
 *  3       2     version         int16
 *  5       4     opaque          int32
 *  9       4     flag            int32 (bit 0 response, bit 1 one-way)
 *  13      4     remark length R int32, 0 for none
 *  17      R     remark          UTF-8
 *  17+R    4     fields length F int32: the bytes of the entries that follow
 *  21+R    F     entries         each: key length int16, key UTF-8, value length int32, value UTF-8
 * </pre>
 *
 * Stateless and thread-safe.
 */
public final class BinaryHeaderCodec {

    /** Offset of the remark length; the fixed fields end here. */
    static final int REMARK_LENGTH_OFFSET = 13;
    /** The smallest header: fixed fields, an empty remark and no extension fields. */
    static final int MIN_LENGTH = REMARK_LENGTH_OFFSET + 4 + 4;

    private static final String[] LANGUAGES = {"JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY", "OTHER",
        "HTTP", "GO", "PHP", "OMS", "RUST", "NODE_JS"};
    private static final int OTHER = 7;

    private BinaryHeaderCodec() {
    }

    /**
     * Reads a header of {@code length} bytes at the buffer's position (which is not changed).
     *
     * @throws RemotingFrameException naming what is wrong; with the opaque and flag once they were readable
     */
    static RemotingCommand read(ByteBuffer buffer, int start, int length) throws RemotingFrameException {
        if (length < RemotingFrameDescriptor.ROCKETMQ_HEADER_MIN_LENGTH) {
            throw new RemotingFrameException("a binary (serialize type 1) header needs at least " + MIN_LENGTH
                    + " bytes, but this one has " + length);
        }
        int opaque = buffer.getInt(start + RemotingFrameDescriptor.ROCKETMQ_HEADER_OPAQUE_OFFSET);
        int flag = buffer.getInt(start + RemotingFrameDescriptor.ROCKETMQ_HEADER_FLAG_OFFSET);
        if (length < MIN_LENGTH) {
            throw new RemotingFrameException("a binary (serialize type 1) header needs at least " + MIN_LENGTH
                    + " bytes (with the remark and extension-field lengths), but this one has " + length, opaque,
                    flag);
        }
        RemotingCommand command = new RemotingCommand();
        command.setCode(buffer.getShort(start));
        command.setLanguage(language(buffer.get(start + 2)));
        command.setVersion(buffer.getShort(start + 3));
        command.setOpaque(opaque);
        command.setFlag(flag);
        command.setSerializeType(RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ);
        int end = start + length;
        int p = start + REMARK_LENGTH_OFFSET;
        int remarkLength = buffer.getInt(p);
        p += 4;
        if (remarkLength < 0 || remarkLength > end - p - 4) {
            throw new RemotingFrameException("the binary header's remark length " + remarkLength
                    + " does not fit the " + length + "-byte header", opaque, flag);
        }
        if (remarkLength > 0) {
            command.setRemark(string(buffer, p, remarkLength));
            p += remarkLength;
        }
        int fieldsLength = buffer.getInt(p);
        p += 4;
        if (fieldsLength != end - p) {
            throw new RemotingFrameException("the binary header's extension fields take " + fieldsLength
                    + " bytes, but " + (end - p) + " bytes are left in the header", opaque, flag);
        }
        if (fieldsLength > 0) {
            Map<String, String> fields = new HashMap<>();
            while (p < end) {
                if (end - p < 2) {
                    throw truncated(opaque, flag);
                }
                int keyLength = buffer.getShort(p);
                p += 2;
                if (keyLength <= 0 || keyLength > end - p - 4) {
                    throw new RemotingFrameException("an extension field name of the binary header has length "
                            + keyLength + ", which does not fit the header", opaque, flag);
                }
                String key = string(buffer, p, keyLength);
                p += keyLength;
                int valueLength = buffer.getInt(p);
                p += 4;
                if (valueLength < 0 || valueLength > end - p) {
                    throw new RemotingFrameException("the value of extension field '" + key + "' of the binary"
                            + " header has length " + valueLength + ", which does not fit the header", opaque, flag);
                }
                fields.put(key, string(buffer, p, valueLength));
                p += valueLength;
            }
            command.adoptExtFields(fields);
        }
        return command;
    }

    /**
     * Whether the binary encoding can carry this command: its code and version must fit in 16 bits, which Wharf's
     * own request codes (200000 and up) do not; those go in JSON.
     */
    public static boolean canCarry(RemotingCommand command) {
        return command.code() == (short) command.code() && command.version() == (short) command.version();
    }

    /** The header of a command in the binary encoding. */
    static byte[] write(RemotingCommand command) {
        if (!canCarry(command)) {
            throw new IllegalArgumentException(command.describe() + " has code " + command.code() + " and version "
                    + command.version() + ", but the binary header carries only 16-bit ones; send it in JSON");
        }
        byte[] remark = command.remark() == null ? new byte[0] : command.remark().getBytes(StandardCharsets.UTF_8);
        Map<String, String> fields = command.extFieldsOrNull();
        int fieldsLength = 0;
        byte[][] encoded = null;
        if (fields != null) {
            encoded = new byte[fields.size() * 2][];
            int i = 0;
            for (Map.Entry<String, String> e : fields.entrySet()) {
                encoded[i] = e.getKey().getBytes(StandardCharsets.UTF_8);
                encoded[i + 1] = e.getValue().getBytes(StandardCharsets.UTF_8);
                fieldsLength += 2 + encoded[i].length + 4 + encoded[i + 1].length;
                i += 2;
            }
        }
        ByteBuffer out = ByteBuffer.allocate(MIN_LENGTH + remark.length + fieldsLength);
        out.putShort((short) command.code());
        out.put(languageCode(command.language()));
        out.putShort((short) command.version());
        out.putInt(command.opaque());
        out.putInt(command.flag());
        out.putInt(remark.length);
        out.put(remark);
        out.putInt(fieldsLength);
        if (encoded != null) {
            for (int i = 0; i < encoded.length; i += 2) {
                out.putShort((short) encoded[i].length);
                out.put(encoded[i]);
                out.putInt(encoded[i + 1].length);
                out.put(encoded[i + 1]);
            }
        }
        return out.array();
    }

    private static RemotingFrameException truncated(int opaque, int flag) {
        return new RemotingFrameException("the binary header ends inside an extension field", opaque, flag);
    }

    private static String string(ByteBuffer buffer, int at, int length) {
        if (buffer.hasArray()) {
            return new String(buffer.array(), buffer.arrayOffset() + at, length, StandardCharsets.UTF_8);
        }
        byte[] bytes = new byte[length];
        buffer.get(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static String language(byte code) {
        return code >= 0 && code < LANGUAGES.length ? LANGUAGES[code] : LANGUAGES[OTHER];
    }

    private static byte languageCode(String language) {
        for (int i = 0; i < LANGUAGES.length; i++) {
            if (LANGUAGES[i].equals(language)) {
                return (byte) i;
            }
        }
        return OTHER;
    }
}
