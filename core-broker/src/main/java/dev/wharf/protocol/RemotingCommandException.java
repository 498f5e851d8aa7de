package dev.wharf.protocol;

/**
 * A command lacks a header field it must carry, or a field's value is malformed. The message names the
 * field, the bad value and the command; the remoting server turns it into a
 * {@link ResponseCode#REQUEST_HEADER_INVALID} response whose remark is this message.
 */
public class RemotingCommandException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final String value;

    public RemotingCommandException(String message, String field, String value) {
        super(message);
        this.field = field;
        this.value = value;
    }

    public RemotingCommandException(String message) {
        this(message, null, null);
    }

    /** The header field at fault, or null if the problem is not about one field. */
    public String field() {
        return field;
    }

    /** The offending value as received, or null if the field was missing. */
    public String value() {
        return value;
    }
}
