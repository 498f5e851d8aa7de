package dev.wharf.txchecker;

/** The transaction log could not read or write its table; the message says what failed and what to check. */
public class TransactionLogException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TransactionLogException(String message, Throwable cause) {
        super(message, cause);
    }
}
