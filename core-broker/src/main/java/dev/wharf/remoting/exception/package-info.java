/**
 * Checked exceptions of remote invocations. {@link dev.wharf.remoting.exception.RemotingException} is the
 * base; each subclass names one way a call can fail (cannot connect, timed out, could not send, too many
 * requests in flight) with the peer's address in the message.
 */
package dev.wharf.remoting.exception;
