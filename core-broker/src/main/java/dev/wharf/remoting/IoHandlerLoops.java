package dev.wharf.remoting;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Event loop groups the Netty 4.2 way. Only {@link Transport} calls this class, and only after it found the 4.2 API
 * on the classpath: every type here is missing from Netty 4.1.
 */
final class IoHandlerLoops {

    private IoHandlerLoops() {
    }

    static EventLoopGroup newGroup(boolean epoll, int threads, String threadPrefix) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(threadPrefix, true),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }
}
