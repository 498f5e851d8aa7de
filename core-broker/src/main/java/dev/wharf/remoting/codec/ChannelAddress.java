package dev.wharf.remoting.codec;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** Formats socket addresses as "ip:port", the form used in logs, exceptions and RemotingChannel. */
public final class ChannelAddress {

    private ChannelAddress() {
    }

    /** The channel's remote "ip:port", or "unconnected" if it has none yet. */
    public static String remote(Channel channel) {
        return format(channel.remoteAddress());
    }

    /** The channel's local "ip:port", or "unconnected" if it has none yet. */
    public static String local(Channel channel) {
        return format(channel.localAddress());
    }

    public static String format(SocketAddress address) {
        if (address == null) {
            return "unconnected";
        }
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return address.toString();
    }
}
