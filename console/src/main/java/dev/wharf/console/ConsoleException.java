package dev.wharf.console;

/** A request the console cannot carry out, with a sentence for the page; {@code status} is the HTTP status. */
public class ConsoleException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public ConsoleException(int status, String message) {
        super(message);
        this.status = status;
    }

    public ConsoleException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public int status() {
        return status;
    }

    static ConsoleException badRequest(String message) {
        return new ConsoleException(400, message);
    }
}
