package dev.wharf.remoting;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The socket transport of an endpoint: native epoll when allowed and available, NIO otherwise.
 *
 * <p>Works on Netty 4.1 and 4.2 alike. The channel classes and {@link EventLoopGroup} exist in both; only the way
 * an event loop group is built differs (4.2's {@code MultiThreadIoEventLoopGroup} with an {@code IoHandler} factory,
 * 4.1's {@code NioEventLoopGroup}/{@code EpollEventLoopGroup}). The 4.2 way lives in {@link IoHandlerLoops}, a class
 * the JVM loads only when {@code io.netty.channel.IoHandlerFactory} is on the classpath, so an application whose
 * dependency management pins Netty 4.1 (Spring Boot 3.5, gRPC, many drivers) never touches a 4.2-only type.
 */
final class Transport {

    private static final Logger log = LoggerFactory.getLogger(Transport.class);

    /** Whether the classpath's Netty has the 4.2 I/O handler API; decided once per class loader. */
    static final boolean IO_HANDLER_API = hasClass("io.netty.channel.IoHandlerFactory");

    private final String name;
    private final boolean epoll;
    private final Class<? extends ServerChannel> serverChannelClass;
    private final Class<? extends Channel> channelClass;

    private Transport(String name, boolean epoll, Class<? extends ServerChannel> serverChannelClass,
                      Class<? extends Channel> channelClass) {
        this.name = name;
        this.epoll = epoll;
        this.serverChannelClass = serverChannelClass;
        this.channelClass = channelClass;
    }

    static Transport select(boolean useEpoll) {
        if (useEpoll) {
            if (Epoll.isAvailable()) {
                return new Transport("epoll", true, EpollServerSocketChannel.class, EpollSocketChannel.class);
            }
            log.info("Native epoll transport unavailable ({}), using NIO", Epoll.unavailabilityCause().toString());
        }
        return new Transport("nio", false, NioServerSocketChannel.class, NioSocketChannel.class);
    }

    EventLoopGroup newEventLoopGroup(int threads, String threadPrefix) {
        return IO_HANDLER_API
                ? IoHandlerLoops.newGroup(epoll, threads, threadPrefix)
                : LegacyLoops.newGroup(epoll, threads, threadPrefix);
    }

    String name() {
        return name;
    }

    Class<? extends ServerChannel> serverChannelClass() {
        return serverChannelClass;
    }

    Class<? extends Channel> channelClass() {
        return channelClass;
    }

    private static boolean hasClass(String className) {
        try {
            Class.forName(className, false, Transport.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
