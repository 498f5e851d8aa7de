package dev.wharf.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.ratis.util.ExitUtils;

/**
 * Ports for controller Raft peers, which a test must name before the nodes start. A port-0 pick comes from the
 * kernel's ephemeral range, where this JVM's own outgoing connections and port-0 servers may take it before the Raft
 * node binds it; these come from below that range, where the kernel never hands out a port by itself, and none twice
 * in one JVM.
 *
 * <p>Loading this class also stops Ratis from ending the JVM (it calls System.exit when, for example, its gRPC
 * server cannot bind): in a test an in-JVM node's failure must fail that test, not every test of the run.
 */
public final class RaftPorts {

    private static final int LOWEST = 10_000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    static {
        ExitUtils.disableSystemExit();
    }

    private RaftPorts() {
    }

    /** A port on 127.0.0.1 that was free a moment ago and is below the ephemeral range. */
    public static int free() {
        int below = ephemeralLow();
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
            if (!HANDED_OUT.add(port)) {
                continue;
            }
            try (ServerSocket probe = new ServerSocket()) {
                probe.bind(new InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException e) {
                // taken by another process: try another
            }
        }
        throw new IllegalStateException("no free port between " + LOWEST + " and " + below);
    }

    /** The first port of Linux's ephemeral range (32768 where it cannot be read). */
    private static int ephemeralLow() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            int low = Integer.parseInt(range.split("\\s+")[0]);
            return low > LOWEST + 1_000 ? low : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
