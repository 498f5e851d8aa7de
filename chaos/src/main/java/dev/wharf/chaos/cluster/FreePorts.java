package dev.wharf.chaos.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Ports the kernel reports free on 127.0.0.1. They are taken before any server starts because a restarted process
 * must come back on the same ports; the set keeps one run from handing out a port twice.
 */
final class FreePorts {

    private final Set<Integer> given = new HashSet<>();

    synchronized int next() {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                s.setReuseAddress(true);
                int port = s.getLocalPort();
                if (given.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
            }
        }
        throw new IllegalStateException("no new free port on 127.0.0.1 after 100 attempts");
    }
}
