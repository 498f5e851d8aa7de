package dev.wharf.common.message;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;

/**
 * An IPv4 address and port packed into one {@code long} (address in the high 32 bits, port in the low 32),
 * which is exactly the 8-byte BORNHOST / STOREHOST field of a stored record. Packing avoids an object per
 * message on the put path. An IPv6 peer is recorded as 0.0.0.0 with its port: the record layout has no room
 * for 16-byte addresses and nothing in the broker depends on the born host.
 */
public final class HostAddress {

    private HostAddress() {
    }

    public static long pack(byte[] ipv4, int port) {
        long ip = ((ipv4[0] & 0xFFL) << 24) | ((ipv4[1] & 0xFFL) << 16) | ((ipv4[2] & 0xFFL) << 8) | (ipv4[3] & 0xFFL);
        return (ip << 32) | (port & 0xFFFFFFFFL);
    }

    public static long pack(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            InetAddress ip = inet.getAddress();
            if (ip instanceof Inet4Address) {
                return pack(ip.getAddress(), inet.getPort());
            }
            return inet.getPort() & 0xFFFFFFFFL;
        }
        return 0L;
    }

    /** Packs "ip:port" (IPv4 literal or host name); unknown hosts become 0.0.0.0. */
    public static long pack(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        String host = colon < 0 ? hostAndPort : hostAndPort.substring(0, colon);
        int port = colon < 0 ? 0 : Integer.parseInt(hostAndPort.substring(colon + 1));
        try {
            InetAddress ip = InetAddress.getByName(host);
            if (ip instanceof Inet4Address) {
                return pack(ip.getAddress(), port);
            }
        } catch (UnknownHostException e) {
            // fall through: an unresolvable name is recorded as 0.0.0.0
        }
        return port & 0xFFFFFFFFL;
    }

    public static int port(long packed) {
        return (int) packed;
    }

    public static byte[] ip(long packed) {
        int ip = (int) (packed >>> 32);
        return new byte[] {(byte) (ip >>> 24), (byte) (ip >>> 16), (byte) (ip >>> 8), (byte) ip};
    }

    public static String toString(long packed) {
        int ip = (int) (packed >>> 32);
        return ((ip >>> 24) & 0xFF) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF)
                + ":" + port(packed);
    }
}
