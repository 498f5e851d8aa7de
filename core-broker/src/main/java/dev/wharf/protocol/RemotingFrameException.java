package dev.wharf.protocol;

/**
 * A frame cannot be decoded: the header length overruns the frame, the serialize type is not JSON, or the
 * header is not a valid command header. When the decoder got far enough to read the opaque and the flag,
 * {@link #hasOpaque()} is true so the receiver can still answer the request with an error response;
 * otherwise the stream cannot be trusted and the connection should be closed.
 */
public class RemotingFrameException extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean hasOpaque;
    private final int opaque;
    private final int flag;

    /** A frame whose opaque is unknown. */
    public RemotingFrameException(String message) {
        super(message);
        this.hasOpaque = false;
        this.opaque = 0;
        this.flag = 0;
    }

    /** A frame whose opaque and flag were read before the error was found. */
    public RemotingFrameException(String message, int opaque, int flag) {
        super(message);
        this.hasOpaque = true;
        this.opaque = opaque;
        this.flag = flag;
    }

    /** Whether {@link #opaque()} and {@link #flag()} were read from the bad frame. */
    public boolean hasOpaque() {
        return hasOpaque;
    }

    public int opaque() {
        return opaque;
    }

    public int flag() {
        return flag;
    }

    /** Whether the bad frame is a request that expects a response, so an error response can be sent. */
    public boolean isAnswerableRequest() {
        return hasOpaque
                && (flag & RemotingFrameDescriptor.FLAG_RESPONSE) == 0
                && (flag & RemotingFrameDescriptor.FLAG_ONEWAY) == 0;
    }
}
