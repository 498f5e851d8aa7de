package dev.wharf.protocol;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Pure encoding and decoding of commands in the layout of {@link RemotingFrameDescriptor}. The Netty
 * encoder writes the prefix, the header-length word, {@link #encodeHeader} and the body straight into
 * socket buffers; {@link #encode} builds a whole frame in the heap for tools and tests.
 * Stateless and thread-safe.
 */
public final class RemotingCommandCodec {

    private RemotingCommandCodec() {
    }

    /** The header of a command in its {@link RemotingCommand#serializeType() encoding}. */
    public static byte[] encodeHeader(RemotingCommand command) {
        byte[] header = command.serializeType() == RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ
                ? BinaryHeaderCodec.write(command) : JsonHeaderCodec.write(command);
        if (header.length > RemotingFrameDescriptor.MAX_HEADER_LENGTH) {
            throw new IllegalArgumentException("the header of " + command.describe() + " takes " + header.length
                    + " bytes, more than the frame's limit of " + RemotingFrameDescriptor.MAX_HEADER_LENGTH
                    + "; move large data from the remark or extension fields into the body");
        }
        return header;
    }

    /** The total-length prefix value for a command whose header is {@code headerLength} bytes. */
    public static int totalLength(RemotingCommand command, int headerLength) {
        int total = RemotingFrameDescriptor.totalLength(headerLength, command.bodyLength());
        if (total < 0) {
            throw new IllegalArgumentException(command.describe() + " with a " + command.bodyLength()
                    + "-byte body does not fit one frame");
        }
        return total;
    }

    /**
     * A whole frame, length prefix included, in a new heap buffer ready to read. Body buffers are copied
     * (this is not the zero-copy path) and not released.
     */
    public static ByteBuffer encode(RemotingCommand command) {
        byte[] header = encodeHeader(command);
        int total = totalLength(command, header.length);
        ByteBuffer frame = ByteBuffer.allocate(RemotingFrameDescriptor.frameLength(total));
        frame.putInt(total);
        frame.putInt(RemotingFrameDescriptor.headerLengthWord(command.serializeType(), header.length));
        frame.put(header);
        if (command.hasBodyBuffers()) {
            for (ByteBuffer buffer : command.bodyBuffers()) {
                frame.put(buffer.duplicate());
            }
        } else if (command.body() != null) {
            frame.put(command.body());
        }
        return frame.flip();
    }

    /**
     * Decodes one frame given without its length prefix: the buffer's remaining bytes start at the
     * header-length word and end with the body. The buffer's position is not changed; the body is copied.
     * A body of zero bytes decodes as a null body.
     *
     * @throws RemotingFrameException naming what is wrong; it carries the opaque when that was readable
     */
    public static RemotingCommand decode(ByteBuffer frameWithoutLengthPrefix) throws RemotingFrameException {
        ByteBuffer frame = frameWithoutLengthPrefix.duplicate().order(ByteOrder.BIG_ENDIAN);
        int base = frame.position();
        int total = frame.remaining();
        if (total < RemotingFrameDescriptor.HEADER_LENGTH_WORD_LENGTH) {
            throw new RemotingFrameException("frame of " + total
                    + " bytes is too short to hold the 4-byte header-length word");
        }
        int word = frame.getInt(base);
        int type = RemotingFrameDescriptor.serializeType(word);
        int headerLength = RemotingFrameDescriptor.headerLength(word);
        int headerStart = base + RemotingFrameDescriptor.HEADER_LENGTH_WORD_LENGTH;
        int bodyLength = RemotingFrameDescriptor.bodyLength(total, headerLength);
        if (bodyLength < 0) {
            throw new RemotingFrameException("header length " + headerLength + " exceeds the "
                    + (total - RemotingFrameDescriptor.HEADER_LENGTH_WORD_LENGTH)
                    + " bytes that follow the header-length word");
        }
        RemotingCommand command;
        if (type == RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ) {
            command = BinaryHeaderCodec.read(frame, headerStart, headerLength);
        } else if (type != RemotingFrameDescriptor.SERIALIZE_TYPE_JSON) {
            throw new RemotingFrameException("serialize type " + type + " is not supported; Wharf reads JSON"
                    + " headers (serialize type 0) and RocketMQ's binary headers (serialize type 1)");
        } else if (headerLength == 0) {
            throw new RemotingFrameException("header length is 0, but a command header is a JSON object");
        } else if (frame.hasArray()) {
            command = JsonHeaderCodec.read(frame.array(), frame.arrayOffset() + headerStart, headerLength);
        } else {
            byte[] header = new byte[headerLength];
            frame.get(headerStart, header);
            command = JsonHeaderCodec.read(header, 0, headerLength);
        }
        if (bodyLength > 0) {
            byte[] body = new byte[bodyLength];
            frame.get(headerStart + headerLength, body);
            command.setBody(body);
        }
        return command;
    }
}
