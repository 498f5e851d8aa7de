package dev.wharf.remoting;

import dev.wharf.protocol.RemotingCommand;

/**
 * Adds credentials to every request a client sends (see {@code dev.wharf.remoting.auth.SigningHook}), just before it
 * is written; a request sent again is signed again.
 */
@FunctionalInterface
public interface RequestSigner {

    /** Adds the credential fields to {@code request}; called on the sending thread. */
    void sign(RemotingCommand request);
}
