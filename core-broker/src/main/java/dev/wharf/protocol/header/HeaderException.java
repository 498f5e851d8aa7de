package dev.wharf.protocol.header;

/** A request or response header is missing a field or has a value of the wrong form. */
public class HeaderException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public HeaderException(String message) {
        super(message);
    }
}
