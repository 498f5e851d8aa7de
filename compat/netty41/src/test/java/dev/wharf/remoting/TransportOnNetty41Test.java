package dev.wharf.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.Version;
import org.junit.jupiter.api.Test;

/** On a Netty 4.1 classpath the transport builds its event loops the 4.1 way and never touches a 4.2-only type. */
@SuppressWarnings("deprecation")
class TransportOnNetty41Test {

    @Test
    void theClasspathCarriesNetty41() {
        assertThat(Version.identify().get("netty-common").artifactVersion()).startsWith("4.1.");
        assertThatThrownBy(() -> Class.forName("io.netty.channel.IoHandlerFactory"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThat(Transport.IO_HANDLER_API).isFalse();
    }

    @Test
    void nioEventLoopsAreNetty41Groups() {
        EventLoopGroup group = Transport.select(false).newEventLoopGroup(1, "nio41-test");
        try {
            assertThat(group).isInstanceOf(NioEventLoopGroup.class);
        } finally {
            group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void epollEventLoopsAreNetty41GroupsWhereEpollRuns() {
        Transport transport = Transport.select(true);
        assertThat(transport.name()).isEqualTo(Epoll.isAvailable() ? "epoll" : "nio");
        EventLoopGroup group = transport.newEventLoopGroup(1, "epoll41-test");
        try {
            assertThat(group).isInstanceOf(Epoll.isAvailable() ? EpollEventLoopGroup.class : NioEventLoopGroup.class);
        } finally {
            group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
