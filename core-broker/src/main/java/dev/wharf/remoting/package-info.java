/**
 * Netty remoting: {@link dev.wharf.remoting.NettyRemotingServer} and
 * {@link dev.wharf.remoting.NettyRemotingClient} exchange {@link dev.wharf.protocol.RemotingCommand}s over
 * TCP. Requests are handed to {@link dev.wharf.remoting.RequestProcessor}s on bounded executors;
 * {@link dev.wharf.remoting.RemotingChannel} is one connection, usable in both directions (a server can call
 * a processor registered on the client over the client's own connection). The NameServer, the broker and
 * the client build on this package; it never imports them or the store.
 */
package dev.wharf.remoting;
