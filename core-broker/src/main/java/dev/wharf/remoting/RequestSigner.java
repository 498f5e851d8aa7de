package dev.wharf.remoting;

import dev.wharf.protocol.RemotingCommand;
import java.util.concurrent.CompletableFuture;

/**
 * Adds credentials to the requests a client sends (see {@code dev.wharf.remoting.auth.SigningHook}): either once per
 * connection ({@link #openSession}), after which requests on that connection go as they are, or request by request
 * ({@link #sign}), just before each is written; a request sent again is signed again.
 */
@FunctionalInterface
public interface RequestSigner {

    /** Adds the credential fields to {@code request}; called on the sending thread. */
    void sign(RemotingCommand request);

    /**
     * Removes the fields {@link #sign} added, if any: {@code request} goes over a connection with a session (it was
     * signed for an earlier attempt on another connection). The default removes nothing.
     */
    default void unsign(RemotingCommand request) {
    }

    /**
     * Authenticates a new connection before any request uses it. Completes with true when the server bound the
     * connection to this signer's user (requests on it then go unsigned), with false when requests on it must be
     * signed one by one: the server offers no sessions (an older server, or one that wants every request signed on
     * plain connections), refused the credentials (each request then carries the server's refusal), or did not
     * prove it knows the user's key. Never completes exceptionally. May be called on an I/O thread: it must not
     * block. The default offers no sessions.
     */
    default CompletableFuture<Boolean> openSession(RemotingChannel channel, long timeoutMillis) {
        return CompletableFuture.completedFuture(Boolean.FALSE);
    }
}
