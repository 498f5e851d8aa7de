package dev.wharf.testing;

import static org.awaitility.Awaitility.await;

import dev.wharf.controller.Controller;
import dev.wharf.controller.ControllerConfig;
import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.remoting.NettyServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Raft quorum of controllers in this JVM on 127.0.0.1 (free ports), each storing under the test's folder, with a
 * leader elected before the constructor returns; and an admin client of theirs. Closing stops them all.
 */
public final class TestControllers implements AutoCloseable {

    private final List<Controller> controllers = new ArrayList<>();
    private final ControllerAdmin admin;

    /** {@code count} controllers {@code n0, n1, ...} storing in {@code dir/controller-<i>}. */
    public TestControllers(Path dir, int count) throws InterruptedException {
        List<String> peers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            peers.add("n" + i + "=127.0.0.1:" + freePort());
        }
        List<Thread> starting = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ControllerConfig c = new ControllerConfig();
            c.setControllerPeers(String.join(",", peers));
            c.setControllerSelfId("n" + i);
            c.setControllerStorePath(dir.resolve("controller-" + i).toString());
            Controller controller = new Controller(c);
            controllers.add(controller);
            // each waits for a quorum of its peers to start: started side by side
            Thread t = new Thread(() -> {
                NettyServerConfig server = new NettyServerConfig();
                server.setListenPort(0);
                server.setSelectorThreads(1);
                controller.start(server);
            });
            t.start();
            starting.add(t);
        }
        for (Thread t : starting) {
            t.join();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> controllers.stream().anyMatch(Controller::isLeader));
        admin = new ControllerAdmin(address(), 5_000);
    }

    private static int freePort() {
        return RaftPorts.free();
    }

    /** The controllers' addresses, {@code ;}-separated (a broker's {@code controllerAddr}). */
    public String address() {
        return String.join(";", controllers.stream().map(Controller::address).toList());
    }

    public List<Controller> controllers() {
        return controllers;
    }

    public ControllerAdmin admin() {
        return admin;
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
        }
        controllers.forEach(Controller::shutdown);
    }
}
