package dev.wharf.controller.client;

import dev.wharf.protocol.ResponseCode;

/**
 * The controller refused a request or could not be reached. {@link #code()} is the controller's response code
 * ({@link ResponseCode}), or {@link #UNREACHABLE} when no controller answered.
 */
public final class ControllerException extends Exception {

    private static final long serialVersionUID = 1L;

    /** No controller node answered (or none was leader) within the timeout. */
    public static final int UNREACHABLE = -1;

    private final int code;

    public ControllerException(int code, String message) {
        super(message);
        this.code = code;
    }

    public ControllerException(int code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public int code() {
        return code;
    }

    public boolean isUnreachable() {
        return code == UNREACHABLE;
    }
}
