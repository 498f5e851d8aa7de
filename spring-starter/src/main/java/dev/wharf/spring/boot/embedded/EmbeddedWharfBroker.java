package dev.wharf.spring.boot.embedded;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NameServer and a broker running inside the application, both on 127.0.0.1: the broker registers with this
 * NameServer only, and the application's connection factory points at it. The store is persistent (a folder of the
 * application's choice), so messages survive a restart of the application.
 *
 * <p>Lifecycle: {@link #start} once, {@link #stop()} once (idempotent). Thread-safe.
 */
public final class EmbeddedWharfBroker {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedWharfBroker.class);

    private final NameServer nameServer;
    private final Broker broker;
    private final Path storeDir;
    private boolean stopped;

    private EmbeddedWharfBroker(NameServer nameServer, Broker broker, Path storeDir) {
        this.nameServer = nameServer;
        this.broker = broker;
        this.storeDir = storeDir;
    }

    /**
     * Starts the NameServer, then the broker registered with it, and returns once clients can find the broker.
     *
     * @param settings       validated broker settings whose {@code storePathRootDir} is set; their
     *                       {@code namesrvAddr} is replaced by the embedded NameServer's address
     * @param nameServerPort the NameServer's port (0 = a free one)
     * @throws IllegalStateException when a server cannot start (port in use, store folder not writable or locked by
     *                               another process); the message names the port or folder
     */
    public static EmbeddedWharfBroker start(BrokerSettings settings, int nameServerPort) {
        Objects.requireNonNull(settings, "settings");
        Path storeDir = Path.of(settings.store().getStorePathRootDir());
        try {
            Files.createDirectories(storeDir);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot create the embedded broker's store folder " + storeDir + ": "
                    + e.getMessage() + "; set wharf.embedded.store-dir to a writable folder.", e);
        }
        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(nameServerPort);
        NameServer nameServer = new NameServer(new NameServerConfig(), server);
        try {
            nameServer.start();
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot start the embedded NameServer on 127.0.0.1:" + nameServerPort + ": "
                    + e.getMessage() + "; choose another wharf.embedded.port (0 = any free port).", e);
        }
        Broker broker = null;
        try {
            settings.broker().setNamesrvAddr(nameServer.address());
            broker = new Broker(settings);
            broker.start();
            broker.registerWithNameServers().join();
        } catch (IOException | RuntimeException e) {
            if (broker != null) {
                broker.shutdown();
            }
            nameServer.shutdown();
            throw new IllegalStateException("Cannot start the embedded broker storing in " + storeDir + ": "
                    + (e instanceof UncheckedIOException u ? u.getCause().getMessage() : e.getMessage())
                    + "; check that the folder is writable and not used by another running broker.", e);
        }
        log.info("Embedded Wharf broker {} started: NameServer at {}, broker at {}, store {} ({})",
                settings.broker().getBrokerName(), nameServer.address(), broker.address(), storeDir,
                settings.store().getFlushDiskType());
        return new EmbeddedWharfBroker(nameServer, broker, storeDir);
    }

    /** The NameServer address clients use ({@code 127.0.0.1:port}). */
    public String namesrvAddr() {
        return nameServer.address();
    }

    /** The broker, for health and metrics. */
    public Broker broker() {
        return broker;
    }

    public Path storeDir() {
        return storeDir;
    }

    public synchronized boolean isRunning() {
        return !stopped && broker.isStarted();
    }

    /** Stops the broker (flushing its store) and then the NameServer. */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            broker.shutdown();
        } finally {
            nameServer.shutdown();
        }
        log.info("Embedded Wharf broker stopped (store {})", storeDir);
    }
}
