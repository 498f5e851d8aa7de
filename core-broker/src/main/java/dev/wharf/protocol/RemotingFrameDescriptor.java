package dev.wharf.protocol;

/**
 * Byte layout of one remoting frame. This is RocketMQ's remoting layout, kept bit-compatible so that a
 * later step can admit the official RocketMQ clients.
 *
 * <pre>
 *  byte 0               4               8                       8 + H                  4 + N
 *  +-------------------+---+-----------+-----------------------+-----------------------+
 *  | total length N    | T | header    | header (H bytes)      | body (B bytes)        |
 *  | int32, big-endian |   | length H  | JSON object, UTF-8    | opaque to remoting    |
 *  +-------------------+---+-----------+-----------------------+-----------------------+
 *                      \___ header-length word (int32) ___/
 *
 *  N = 4 + H + B            (the total length does not count its own 4 bytes)
 *  T = serialize type       (high byte of the word; 0 = JSON, 1 = RocketMQ's binary header, see BinaryHeaderCodec)
 *  H = header length        (low 3 bytes of the word, so at most 16 MiB - 1)
 * </pre>
 *
 * The header is a JSON object:
 * <pre>
 * {"code":int,"language":"JAVA","version":int,"opaque":int,"flag":int,"remark":string|null,
 *  "extFields":{string:string}|null}
 * </pre>
 * Unknown properties are ignored (RocketMQ clients also send {@code "serializeTypeCurrentRPC"}).
 * {@code flag} bit 0 marks a response, bit 1 a one-way request.
 *
 * <p>"Frame" offsets below count from the first byte of the length prefix; the codec's
 * {@code decode} takes the frame <em>without</em> the prefix, that is starting at the header-length word.
 */
public final class RemotingFrameDescriptor {

    /** Offset of the total-length prefix. */
    public static final int LENGTH_FIELD_OFFSET = 0;
    /** Size of the total-length prefix. */
    public static final int LENGTH_FIELD_LENGTH = 4;
    /** Offset of the header-length word in a whole frame. */
    public static final int HEADER_LENGTH_WORD_OFFSET = LENGTH_FIELD_OFFSET + LENGTH_FIELD_LENGTH;
    /** Size of the header-length word (serialize type + header length). */
    public static final int HEADER_LENGTH_WORD_LENGTH = 4;
    /** Offset of the header bytes in a whole frame. */
    public static final int HEADER_OFFSET = HEADER_LENGTH_WORD_OFFSET + HEADER_LENGTH_WORD_LENGTH;
    /** Largest header the 3-byte length can express. */
    public static final int MAX_HEADER_LENGTH = 0xFF_FFFF;

    /** Serialize type of a JSON header: what Wharf's clients and servers send. */
    public static final int SERIALIZE_TYPE_JSON = 0;
    /** RocketMQ's compact binary header ("ROCKETMQ"); read, and used for the answers to requests sent in it. */
    public static final int SERIALIZE_TYPE_ROCKETMQ = 1;
    /** In a binary header: code int16, language int8, version int16, then the opaque int32. */
    public static final int ROCKETMQ_HEADER_OPAQUE_OFFSET = 5;
    /** In a binary header the flag int32 follows the opaque. */
    public static final int ROCKETMQ_HEADER_FLAG_OFFSET = 9;
    /** A binary header shorter than this cannot hold an opaque and a flag. */
    public static final int ROCKETMQ_HEADER_MIN_LENGTH = 13;

    /** Header flag bit 0: the command is a response (RocketMQ's "RPC type"). */
    public static final int FLAG_RESPONSE = 1;
    /** Header flag bit 1: the request expects no response. */
    public static final int FLAG_ONEWAY = 1 << 1;

    /** Default largest whole frame (prefix included): a 16 MiB body plus room for the header. */
    public static final int DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024 + 64 * 1024;

    private RemotingFrameDescriptor() {
    }

    /** The header-length word for a serialize type and a header length. */
    public static int headerLengthWord(int serializeType, int headerLength) {
        return (serializeType & 0xFF) << 24 | headerLength & MAX_HEADER_LENGTH;
    }

    /** The serialize type held in the high byte of a header-length word. */
    public static int serializeType(int headerLengthWord) {
        return headerLengthWord >>> 24;
    }

    /** The header length held in the low three bytes of a header-length word. */
    public static int headerLength(int headerLengthWord) {
        return headerLengthWord & MAX_HEADER_LENGTH;
    }

    /** The value of the total-length prefix, N = 4 + H + B; -1 if it would not fit an int. */
    public static int totalLength(int headerLength, long bodyLength) {
        long total = HEADER_LENGTH_WORD_LENGTH + (long) headerLength + bodyLength;
        return total > Integer.MAX_VALUE - LENGTH_FIELD_LENGTH ? -1 : (int) total;
    }

    /** Bytes on the wire for a whole frame, prefix included. */
    public static int frameLength(int totalLength) {
        return LENGTH_FIELD_LENGTH + totalLength;
    }

    /** Body length implied by a total length and a header length (negative if the header overruns). */
    public static int bodyLength(int totalLength, int headerLength) {
        return totalLength - HEADER_LENGTH_WORD_LENGTH - headerLength;
    }

    /** Offset of the body in a whole frame. */
    public static int bodyOffset(int headerLength) {
        return HEADER_OFFSET + headerLength;
    }
}
