package dev.wharf.remoting;

import dev.wharf.protocol.RemotingCommand;

/**
 * A check every request of a server passes before its processor sees it (authentication and authorization, see
 * {@code dev.wharf.remoting.auth}). Runs on the processor's executor, never on an I/O thread.
 */
@FunctionalInterface
public interface RequestGuard {

    /**
     * Null to let the request through, or the response to answer instead (built with
     * {@link RemotingCommand#newResponse}); the processor is then not called.
     */
    RemotingCommand check(RemotingChannel channel, RemotingCommand request);

    /**
     * The response to a request the guard serves itself (a connection's authentication handshake), which no
     * processor is registered for; null for every other request, which then goes its usual way. Called on the I/O
     * thread before the processor is looked up, so it must answer at once and must not block; the default serves
     * nothing.
     */
    default RemotingCommand answer(RemotingChannel channel, RemotingCommand request) {
        return null;
    }
}
