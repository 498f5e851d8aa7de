package dev.wharf.remoting;

import io.netty.channel.Channel;

/**
 * Adds handlers to the head of a new connection's pipeline, before framing: TLS ({@code dev.wharf.remoting.tls}).
 * Called once per connection on its I/O thread.
 */
@FunctionalInterface
public interface PipelineHook {

    /**
     * @param peerHost the host a client connection was opened to (for host name verification); null on a server
     * @param peerPort its port; 0 on a server
     */
    void initChannel(Channel channel, String peerHost, int peerPort);
}
