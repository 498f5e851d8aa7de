package dev.wharf.remoting;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.Version;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On Netty 4.2 (this module's own classpath) the transport builds its event loops the 4.2 way; the Netty 4.1 way is
 * tested on a 4.1 classpath by the compatibility module.
 */
class TransportGenerationTest {

    @ParameterizedTest(name = "useEpoll={0}")
    @ValueSource(booleans = { true, false })
    void netty42BuildsIoHandlerGroups(boolean useEpoll) {
        assertThat(Version.identify().get("netty-common").artifactVersion()).startsWith("4.2.");
        assertThat(Transport.IO_HANDLER_API).isTrue();
        EventLoopGroup group = Transport.select(useEpoll).newEventLoopGroup(1, "transport-test");
        try {
            assertThat(group).isInstanceOf(MultiThreadIoEventLoopGroup.class);
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
