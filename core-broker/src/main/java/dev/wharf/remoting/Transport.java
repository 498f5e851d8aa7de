package dev.wharf.remoting;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The socket transport of an endpoint: native epoll when allowed and available, NIO otherwise. */
final class Transport {

    private static final Logger log = LoggerFactory.getLogger(Transport.class);

    private final String name;
    private final Supplier<IoHandlerFactory> ioHandlerFactory;
    private final Class<? extends ServerChannel> serverChannelClass;
    private final Class<? extends Channel> channelClass;

    private Transport(String name, Supplier<IoHandlerFactory> ioHandlerFactory,
                      Class<? extends ServerChannel> serverChannelClass, Class<? extends Channel> channelClass) {
        this.name = name;
        this.ioHandlerFactory = ioHandlerFactory;
        this.serverChannelClass = serverChannelClass;
        this.channelClass = channelClass;
    }

    static Transport select(boolean useEpoll) {
        if (useEpoll) {
            if (Epoll.isAvailable()) {
                return new Transport("epoll", EpollIoHandler::newFactory, EpollServerSocketChannel.class,
                        EpollSocketChannel.class);
            }
            log.info("Native epoll transport unavailable ({}), using NIO", Epoll.unavailabilityCause().toString());
        }
        return new Transport("nio", NioIoHandler::newFactory, NioServerSocketChannel.class, NioSocketChannel.class);
    }

    EventLoopGroup newEventLoopGroup(int threads, String threadPrefix) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(threadPrefix, true),
                ioHandlerFactory.get());
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
}
