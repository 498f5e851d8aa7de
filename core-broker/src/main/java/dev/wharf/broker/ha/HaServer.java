package dev.wharf.broker.ha;

import dev.wharf.store.ReplicableStore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's HA port: accepts slaves, gives each an {@link HaConnection}, wakes their transfer threads after
 * every append, and closes connections that went silent. A bad connection (garbage, a slave of another broker,
 * a diverged log) is refused on its own; the others and the broker keep going.
 *
 * <p>Blocking NIO with two threads per slave rather than Netty: a master has a handful of slaves, each a single
 * ordered byte stream, so a thread that writes mapped-file slices straight to its socket is the simplest correct
 * shape, with no pipeline between the mapped file and the socket and no buffer copies.
 */
final class HaServer {

    private static final Logger log = LoggerFactory.getLogger(HaServer.class);

    private final HaConfig config;
    private final String brokerName;
    private final ReplicableStore store;
    private final ReplicaTracker tracker;
    private final List<HaConnection> connections = new CopyOnWriteArrayList<>();
    private final int maxFrameBody;
    private final long maxIdleNanos;
    private final EpochFile epochs;
    private volatile HaSecurity security = HaSecurity.NONE;
    private ServerSocketChannel server;
    private ScheduledExecutorService housekeeping;
    private volatile boolean running;

    /**
     * @param maxIdleNanos longest sleep of a transfer thread between looks for new data: a SYNC_MASTER wakes its
     *                     transfer threads on every append (sends wait for them), an ASYNC_MASTER lets them look
     *                     every millisecond, gathering appends into fewer, larger frames
     */
    HaServer(HaConfig config, String brokerName, ReplicableStore store, ReplicaTracker tracker, long maxIdleNanos,
             EpochFile epochs) {
        this.epochs = epochs;
        this.maxIdleNanos = maxIdleNanos;
        this.config = config;
        this.brokerName = brokerName;
        this.store = store;
        this.tracker = tracker;
        // a master only reads handshakes, acks and refusals
        this.maxFrameBody = HaFrame.MAX_REFUSAL_SIZE + HaFrame.HANDSHAKE_FIXED_SIZE + HaFrame.MAX_NAME_LENGTH;
    }

    /** TLS and authentication of connections accepted from now on. */
    void setSecurity(HaSecurity security) {
        this.security = security;
    }

    /** Binds and starts accepting; returns the port bound. */
    int start(String bindAddress, int port) throws IOException {
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(bindAddress, port));
        running = true;
        Thread acceptor = new Thread(this::acceptLoop, "wharf-ha-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "wharf-ha-housekeeping");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(100, Math.min(1_000, config.getHaHousekeepingInterval() / 4));
        housekeeping.scheduleWithFixedDelay(this::closeIdle, period, period, TimeUnit.MILLISECONDS);
        int bound = ((InetSocketAddress) server.getLocalAddress()).getPort();
        log.info("HA port of {} listening on {}:{} ({})", brokerName, bindAddress, bound, security.describe(true));
        return bound;
    }

    private void acceptLoop() {
        while (running) {
            SocketChannel socket;
            try {
                socket = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (running) {
                    log.warn("HA accept failed: {}", e.toString());
                }
                continue;
            }
            try {
                socket.socket().setTcpNoDelay(true);
                socket.socket().setKeepAlive(true);
                HaConnection[] self = new HaConnection[1];
                HaConnection connection = new HaConnection(new FrameChannel(socket, maxFrameBody), store, config,
                        brokerName, tracker, maxIdleNanos, epochs, security, () -> connections.remove(self[0]));
                self[0] = connection;
                connections.add(connection);
                connection.start();
            } catch (IOException e) {
                log.warn("Could not set up an HA connection: {}", e.toString());
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // already broken
                }
            }
        }
    }

    private void closeIdle() {
        long now = System.currentTimeMillis();
        for (HaConnection connection : connections) {
            connection.checkIdle(now);
        }
    }

    /** Wakes every transfer thread (after an append). Cheap when they are busy. */
    void dataArrived() {
        for (HaConnection connection : connections) {
            connection.dataArrived();
        }
    }

    int connectionCount() {
        return connections.size();
    }

    void shutdown() {
        running = false;
        if (housekeeping != null) {
            housekeeping.shutdownNow();
        }
        try {
            if (server != null) {
                server.close();
            }
        } catch (IOException e) {
            log.debug("Closing the HA port: {}", e.toString());
        }
        for (HaConnection connection : connections) {
            connection.close();
        }
    }
}
