package dev.wharf.spring.boot.embedded;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.embedded.EmbeddedServer;
import dev.wharf.embedded.EmbeddedServerException;
import dev.wharf.embedded.StoreStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NameServer and a broker running inside the application, both on 127.0.0.1: the broker registers with this
 * NameServer only, and the application's connection factory points at it. The store is persistent (a folder of the
 * application's choice), so messages survive a restart of the application. The NameServer is secured with the
 * broker's {@code wharf.embedded.broker.*} TLS and ACL settings, so the two are secured as one. The servers are an
 * {@link EmbeddedServer}; this bean adds the starter's property names to its failures.
 *
 * <p>Lifecycle: {@link #start} once, {@link #stop()} once (idempotent). Thread-safe.
 */
public final class EmbeddedWharfBroker {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedWharfBroker.class);

    private final EmbeddedServer server;
    private boolean stopped;

    private EmbeddedWharfBroker(EmbeddedServer server) {
        this.server = server;
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
        EmbeddedServer server;
        try {
            server = EmbeddedServer.start(settings, nameServerPort);
        } catch (EmbeddedServerException e) {
            throw new IllegalStateException(e.getMessage() + switch (e.part()) {
                case NAME_SERVER, NAME_SERVER_METRICS -> "; choose another wharf.embedded.port (0 = any free port).";
                case SECURITY -> " (as wharf.embedded.broker.inner-client-authentication-credentials,"
                        + " wharf.embedded.broker.inner-client-tls-enable and"
                        + " wharf.embedded.broker.inner-client-tls-trust-cert-path).";
                case BROKER -> "; check that the folder is writable and not used by another running broker.";
            }, e);
        }
        log.info("Embedded Wharf broker {} started: NameServer at {}, broker at {}, store {} ({})",
                settings.broker().getBrokerName(), server.namesrvAddr(), server.broker().address(), storeDir,
                settings.store().getFlushDiskType());
        return new EmbeddedWharfBroker(server);
    }

    /** The NameServer address clients use ({@code 127.0.0.1:port}). */
    public String namesrvAddr() {
        return server.namesrvAddr();
    }

    /** The broker, for health and metrics. */
    public Broker broker() {
        return server.broker();
    }

    public Path storeDir() {
        return server.storeDir();
    }

    /** The state of the broker's store, for the health check. */
    public StoreStatus storeStatus() {
        return server.storeStatus();
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    /** Stops the broker (flushing its store) and then the NameServer. */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        server.close();
        log.info("Embedded Wharf broker stopped (store {})", server.storeDir());
    }
}
