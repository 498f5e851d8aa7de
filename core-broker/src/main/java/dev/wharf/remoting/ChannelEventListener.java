package dev.wharf.remoting;

/**
 * Told about connections coming and going: the NameServer evicts a broker whose channel closed, the broker
 * drops the producers and consumers of a closed channel. Events are delivered in order on one dedicated
 * thread per endpoint (never an I/O thread), so a listener may take locks, but a slow listener delays the
 * events after it.
 */
public interface ChannelEventListener {

    default void onConnect(String remoteAddress, RemotingChannel channel) {
    }

    /** The connection closed, for whatever reason; requests waiting on it have already failed. */
    default void onClose(String remoteAddress, RemotingChannel channel) {
    }

    /** Nothing was read or written for the configured idle time; the connection is being closed. */
    default void onIdle(String remoteAddress, RemotingChannel channel) {
    }

    /** An error on the connection (I/O error, bad input); the connection is being closed. */
    default void onException(String remoteAddress, RemotingChannel channel, Throwable cause) {
    }
}
