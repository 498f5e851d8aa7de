package dev.wharf.remoting;

import dev.wharf.protocol.RemotingCommand;

/**
 * Handles the requests of one or more request codes. Runs on the executor it was registered with, never
 * on an I/O thread, so it may block (on the store, for example).
 */
@FunctionalInterface
public interface RequestProcessor {

    /**
     * Handles a request and returns its response; the remoting layer copies the request's opaque into it
     * and sets the response flag. Returning null means "no response now": the processor keeps the channel
     * and answers later with {@link RemotingChannel#writeResponse} (long polling), using
     * {@link RemotingCommand#newResponse} so the opaque matches. For one-way requests nothing is ever sent.
     *
     * <p>A {@link dev.wharf.protocol.RemotingCommandException} or a
     * {@link dev.wharf.protocol.header.HeaderException} (missing or malformed header field) becomes
     * a {@code REQUEST_HEADER_INVALID} response naming the field; any other exception becomes a
     * {@code SYSTEM_ERROR} response carrying the exception's message (never its stack).
     */
    RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception;

    /**
     * Whether to refuse requests right now with {@code SYSTEM_BUSY} before they are queued (for example
     * while the store is under memory pressure). Called on an I/O thread for every request: keep it cheap.
     */
    default boolean rejectRequest() {
        return false;
    }
}
