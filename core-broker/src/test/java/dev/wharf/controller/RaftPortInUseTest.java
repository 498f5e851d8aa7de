package dev.wharf.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.testing.RaftPorts;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RaftPortInUseTest {

    @TempDir
    Path dir;

    @Test
    void aTakenRaftPortIsAStartFailureNamingThePortNotAnExit() throws Exception {
        int port = RaftPorts.free();
        try (ServerSocket squatter = new ServerSocket()) {
            squatter.bind(new InetSocketAddress("127.0.0.1", port));
            Controller controller = new Controller(ControllerNodes.config("n0=127.0.0.1:" + port, "n0",
                    dir.resolve("n0")));
            NettyServerConfig server = new NettyServerConfig();
            server.setListenPort(0);
            assertThatThrownBy(() -> controller.start(server))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("127.0.0.1:" + port)
                    .hasMessageContaining("cannot be bound")
                    .hasMessageContaining("controllerPeers");
            controller.shutdown();
        }
        // the port is usable once freed: the failed start left nothing bound
        Controller controller = new Controller(ControllerNodes.config("n0=127.0.0.1:" + port, "n0", dir.resolve("n0")));
        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(0);
        try {
            controller.start(server);
            assertThat(controller.address()).isNotBlank();
        } finally {
            controller.shutdown();
        }
    }
}
