package dev.wharf.remoting;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Event loop groups the Netty 4.1 way, for a classpath whose Netty lacks the 4.2 I/O handler API. Netty 4.2 keeps
 * these classes (deprecated), so this compiles against either; {@link Transport} uses it only on 4.1.
 */
@SuppressWarnings("deprecation")
final class LegacyLoops {

    private LegacyLoops() {
    }

    static EventLoopGroup newGroup(boolean epoll, int threads, String threadPrefix) {
        DefaultThreadFactory threadFactory = new DefaultThreadFactory(threadPrefix, true);
        return epoll ? new EpollEventLoopGroup(threads, threadFactory) : new NioEventLoopGroup(threads, threadFactory);
    }
}
