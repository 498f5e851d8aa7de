package dev.wharf.jms.message;

import jakarta.jms.MessageFormatException;
import java.io.IOException;

/**
 * What the map and the stream message share about their typed-value bodies: which values they may hold, how a
 * range of a byte[] is taken, and how a received body is decoded (on first use, so that a damaged body fails the
 * read that finds it with {@link MessageFormatException}, not the delivery).
 */
final class TypedBodies {

    private TypedBodies() {
    }

    /** Decodes a received body; its {@link IOException} means the bytes are damaged. */
    @FunctionalInterface
    interface Decoder<T> {
        T decode(byte[] body) throws IOException;
    }

    /**
     * The decoded body.
     *
     * @param kind "map" or "stream", for the message
     * @throws MessageFormatException when the body is damaged; the decoder's exception is its cause
     */
    static <T> T decode(byte[] body, Decoder<T> decoder, String kind) throws MessageFormatException {
        try {
            return decoder.decode(body);
        } catch (IOException e) {
            MessageFormatException mfe = new MessageFormatException("The " + kind + " message body is damaged ("
                    + e.getMessage() + "); it was not written by a Wharf " + kind + " message.");
            mfe.initCause(e);
            mfe.setLinkedException(e);
            throw mfe;
        }
    }

    /** Whether a map entry or stream field may hold the value: a primitive wrapper, String, byte[] or null. */
    static boolean canHold(Object value) {
        return value == null || value instanceof String || value instanceof Boolean || value instanceof Byte
                || value instanceof Short || value instanceof Character || value instanceof Integer
                || value instanceof Long || value instanceof Float || value instanceof Double
                || value instanceof byte[];
    }

    /**
     * A copy of {@code length} bytes of {@code value} from {@code offset}.
     *
     * @throws IndexOutOfBoundsException when the range is not inside the array
     */
    static byte[] copyOfRange(byte[] value, int offset, int length) {
        if (offset < 0 || length < 0 || offset > value.length - length) {
            throw new IndexOutOfBoundsException("Cannot take " + length + " bytes from offset " + offset
                    + " of an array of " + value.length + ".");
        }
        byte[] copy = new byte[length];
        System.arraycopy(value, offset, copy, 0, length);
        return copy;
    }
}
