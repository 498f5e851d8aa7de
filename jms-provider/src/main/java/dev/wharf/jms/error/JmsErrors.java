package dev.wharf.jms.error;

import dev.wharf.client.ClientException;
import dev.wharf.protocol.ResponseCode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidClientIDRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.TransactionRolledBackRuntimeException;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Maps failures to the exception the Jakarta Messaging specification names for them.
 *
 * <p>Every exception built here carries its cause twice, as {@link Throwable#getCause()} and as
 * {@link JMSException#getLinkedException()}, because older tools only look at the linked exception. Messages are
 * sentences that say what failed and what the user can do about it. The unchecked twins follow the table of the
 * simplified API ({@code JMSContext} Javadoc): each checked subclass has a
 * {@code ...RuntimeException} of the same name; the checked exceptions without a twin
 * ({@code MessageNotReadableException}, {@code MessageEOFException}) become a plain {@link JMSRuntimeException}.
 */
public final class JmsErrors {

    private JmsErrors() {
    }

    /** A call to the classic API that the simplified API runs and rethrows unchecked. */
    @FunctionalInterface
    public interface JmsCall<T> {
        T call() throws JMSException;
    }

    /** Like {@link JmsCall} without a result. */
    @FunctionalInterface
    public interface JmsAction {
        void run() throws JMSException;
    }

    /** Attaches {@code cause} as both the cause and the linked exception; returns {@code e} for throwing. */
    public static <E extends JMSException> E withCause(E e, Throwable cause) {
        if (cause != null && cause != e) {
            if (e.getCause() == null) {
                e.initCause(cause);
            }
            if (e.getLinkedException() == null) {
                e.setLinkedException(cause instanceof Exception ex ? ex : new Exception(cause));
            }
        }
        return e;
    }

    /** A plain {@link JMSException} with a cause. */
    public static JMSException jms(String message, Throwable cause) {
        return withCause(new JMSException(message), cause);
    }

    /** The {@link IllegalStateException} that closed objects throw: "The session is closed; ...". */
    public static IllegalStateException closed(String what) {
        return new IllegalStateException("The " + what + " is closed; create a new one to continue.");
    }

    /**
     * Translates a broker answer that is not {@link ResponseCode#SUCCESS} into the matching exception.
     *
     * @param code      the response code
     * @param remark    the broker's remark (may be null)
     * @param operation what was attempted, as a verb phrase: "send to queue orders"
     */
    public static JMSException fromResponse(int code, String remark, String operation) {
        String said = remark == null || remark.isBlank() ? "" : ": " + remark.strip();
        String errorCode = ResponseCode.NAMES.name(code);
        String prefix = "The broker refused to " + operation + said;
        JMSException e = switch (code) {
            case ResponseCode.NO_PERMISSION -> new JMSSecurityException(prefix
                    + ". Grant the permission on the broker or use another destination.", errorCode);
            case ResponseCode.AUTHENTICATION_FAILED -> new JMSSecurityException(prefix
                    + ". Check the user name and password given to the connection factory (createConnection(user,"
                    + " password) or its user/password options).", errorCode);
            case ResponseCode.TOPIC_NOT_EXIST, ResponseCode.SUBSCRIPTION_NOT_EXIST,
                    ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST -> new InvalidDestinationException(prefix
                    + ". The destination or subscription does not exist on the broker; create it first or enable"
                    + " automatic creation on the broker.", errorCode);
            case ResponseCode.SUBSCRIPTION_PARSE_FAILED -> new InvalidSelectorException(prefix
                    + ". Fix the message selector.", errorCode);
            case ResponseCode.MESSAGE_ILLEGAL -> new MessageFormatException(prefix
                    + ". Make the message smaller or fix its properties.", errorCode);
            case ResponseCode.SYSTEM_BUSY, ResponseCode.POLLING_FULL -> new ResourceAllocationException(prefix
                    + ". The broker is overloaded; retry later or reduce the load.", errorCode);
            case ResponseCode.FLUSH_DISK_TIMEOUT, ResponseCode.FLUSH_SLAVE_TIMEOUT,
                    ResponseCode.SLAVE_NOT_AVAILABLE -> new JMSException(prefix
                    + ". The message may or may not have been stored; if duplicates are harmful, check before"
                    + " sending it again.", errorCode);
            case ResponseCode.SERVICE_NOT_AVAILABLE -> new JMSException(prefix
                    + ". The broker is shutting down or does not accept writes; retry against a running broker.",
                    errorCode);
            case ResponseCode.VERSION_NOT_SUPPORTED, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    ResponseCode.REQUEST_HEADER_INVALID -> new JMSException(prefix
                    + ". The client and the broker do not speak the same protocol version; use matching versions.",
                    errorCode);
            default -> new JMSException(prefix + " (" + ResponseCode.NAMES.describe(code) + ").", errorCode);
        };
        return e;
    }

    /**
     * Translates a failed client call: a broker's refusal through {@link #fromResponse}, a call nobody answered
     * (unreachable, timed out, connection lost) as a {@link JMSException} that says the operation may or may not
     * have taken effect. The client's own sentence is kept in the message.
     *
     * @param operation what was attempted, as a verb phrase: "send to queue orders"
     */
    public static JMSException fromClient(ClientException e, String operation) {
        if (e.isNoResponse()) {
            return jms("Could not " + operation + ": " + describe(e) + ". No broker answered, so the operation may"
                    + " or may not have taken effect; check that the broker is running and reachable.", e);
        }
        return withCause(fromResponse(e.responseCode(), e.getMessage(), operation), e);
    }

    /**
     * Translates any failure into a {@link JMSException}: a {@code JMSException} is returned as it is, a
     * {@link JMSRuntimeException} becomes its checked twin, wrappers ({@link ExecutionException},
     * {@link CompletionException}) are unwrapped, and the rest get a sentence naming the operation.
     *
     * @param operation what was attempted, as a verb phrase: "send to queue orders"
     */
    public static JMSException translate(String operation, Throwable failure) {
        Throwable t = failure;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof JMSException e) {
            return e;
        }
        if (t instanceof JMSRuntimeException e) {
            return toChecked(e);
        }
        if (t instanceof ClientException e) {
            return fromClient(e, operation);
        }
        if (t instanceof dev.wharf.filter.InvalidSelectorException e) {
            return withCause(new InvalidSelectorException(e.getMessage()), e);
        }
        if (t instanceof TimeoutException) {
            return jms("Timed out while trying to " + operation
                    + "; check that the broker is reachable and not overloaded, or raise the timeout.", t);
        }
        if (t instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return jms("Interrupted while trying to " + operation + "; the operation may not have completed.", t);
        }
        if (t instanceof IOException) {
            return jms("Could not " + operation + " (" + describe(t)
                    + "); check the broker address and that the broker is running.", t);
        }
        return jms("Could not " + operation + ": " + describe(t), t);
    }

    /** The unchecked twin of a checked exception, same message and error code, the checked one as cause. */
    public static JMSRuntimeException toRuntime(JMSException e) {
        String m = e.getMessage();
        String c = e.getErrorCode();
        if (e instanceof IllegalStateException) {
            return new IllegalStateRuntimeException(m, c, e);
        }
        if (e instanceof InvalidClientIDException) {
            return new InvalidClientIDRuntimeException(m, c, e);
        }
        if (e instanceof InvalidDestinationException) {
            return new InvalidDestinationRuntimeException(m, c, e);
        }
        if (e instanceof InvalidSelectorException) {
            return new InvalidSelectorRuntimeException(m, c, e);
        }
        if (e instanceof JMSSecurityException) {
            return new JMSSecurityRuntimeException(m, c, e);
        }
        if (e instanceof MessageFormatException) {
            return new MessageFormatRuntimeException(m, c, e);
        }
        if (e instanceof MessageNotWriteableException) {
            return new MessageNotWriteableRuntimeException(m, c, e);
        }
        if (e instanceof ResourceAllocationException) {
            return new ResourceAllocationRuntimeException(m, c, e);
        }
        if (e instanceof TransactionInProgressException) {
            return new TransactionInProgressRuntimeException(m, c, e);
        }
        if (e instanceof TransactionRolledBackException) {
            return new TransactionRolledBackRuntimeException(m, c, e);
        }
        return new JMSRuntimeException(m, c, e);
    }

    /** The checked twin of an unchecked exception (the reverse of {@link #toRuntime}). */
    public static JMSException toChecked(JMSRuntimeException e) {
        String m = e.getMessage();
        String c = e.getErrorCode();
        if (e.getCause() instanceof JMSException checked) {
            return checked;
        }
        JMSException out;
        if (e instanceof IllegalStateRuntimeException) {
            out = new IllegalStateException(m, c);
        } else if (e instanceof InvalidClientIDRuntimeException) {
            out = new InvalidClientIDException(m, c);
        } else if (e instanceof InvalidDestinationRuntimeException) {
            out = new InvalidDestinationException(m, c);
        } else if (e instanceof InvalidSelectorRuntimeException) {
            out = new InvalidSelectorException(m, c);
        } else if (e instanceof JMSSecurityRuntimeException) {
            out = new JMSSecurityException(m, c);
        } else if (e instanceof MessageFormatRuntimeException) {
            out = new MessageFormatException(m, c);
        } else if (e instanceof MessageNotWriteableRuntimeException) {
            out = new MessageNotWriteableException(m, c);
        } else if (e instanceof ResourceAllocationRuntimeException) {
            out = new ResourceAllocationException(m, c);
        } else if (e instanceof TransactionInProgressRuntimeException) {
            out = new TransactionInProgressException(m, c);
        } else if (e instanceof TransactionRolledBackRuntimeException) {
            out = new TransactionRolledBackException(m, c);
        } else {
            out = new JMSException(m, c);
        }
        return withCause(out, e.getCause() != null ? e.getCause() : e);
    }

    /** Runs a classic-API call for the simplified API, rethrowing a {@link JMSException} as its unchecked twin. */
    public static <T> T unchecked(JmsCall<T> call) {
        try {
            return call.call();
        } catch (JMSException e) {
            throw toRuntime(e);
        }
    }

    /** Like {@link #unchecked(JmsCall)} for calls without a result. */
    public static void uncheckedRun(JmsAction action) {
        try {
            action.run();
        } catch (JMSException e) {
            throw toRuntime(e);
        }
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
    }
}
