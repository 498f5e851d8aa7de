package dev.wharf.embedded;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.controller.ControllerConfig;
import dev.wharf.metrics.BrokerMetrics;
import dev.wharf.metrics.NameServerMetrics;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.store.health.StoreHealth;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NameServer, a broker, or a NameServer with a broker registered at it, running in this JVM. Started by
 * {@link Builder#start()} in one order (the NameServer, its metrics, the broker, the broker's registration) and
 * closed in the reverse one, so that the broker can unregister before its NameServer goes. When a part fails to
 * start, the parts already started are stopped again and an {@link EmbeddedServerException} names the part, its
 * address or store folder and the cause; the caller adds the hint of its own surface.
 *
 * <p>Thread-safe; {@link #close()} is idempotent.
 */
public final class EmbeddedServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedServer.class);

    private static final Set<String> WILDCARDS = Set.of("0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0");

    private final NameServer nameServer;
    private final String nameServerBind;
    private final Broker broker;
    private final Deque<Stop> stops;
    private boolean closed;

    private record Stop(String what, Runnable action) {
    }

    private EmbeddedServer(NameServer nameServer, String nameServerBind, Broker broker, Deque<Stop> stops) {
        this.nameServer = nameServer;
        this.nameServerBind = nameServerBind;
        this.broker = broker;
        this.stops = stops;
    }

    /** A server to configure: a NameServer, a broker, or both. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A NameServer on 127.0.0.1 and a broker registered with it alone (its {@code namesrvAddr} is replaced). The two
     * are secured as one: the NameServer takes the broker's TLS and authentication settings and its users file (see
     * {@link #sharedSecurity}), so a broker with {@code aclEnable} needs {@code innerClientAuthenticationCredentials}
     * and one with {@code tlsMode=enforcing} needs {@code innerClientTlsEnable} to register. With the default
     * settings both stay plain and open.
     *
     * @param settings       validated broker settings
     * @param nameServerPort the NameServer's port (0 = a free one)
     * @throws EmbeddedServerException when a part cannot start; nothing runs then
     */
    public static EmbeddedServer start(BrokerSettings settings, int nameServerPort) {
        NettyServerConfig netty = sharedSecurity(settings, new NettyServerConfig());
        netty.setListenPort(nameServerPort);
        return builder().nameServer(new NameServerConfig(), netty, new ControllerConfig()).broker(settings).start();
    }

    /**
     * Gives a NameServer's listener the security of a broker it runs beside: the same authentication and
     * authorization, the same users file (the broker's, by default {@code config/acl.json} under its store), the same
     * TLS mode, certificate, key and client-certificate trust. One users file and one certificate then secure both
     * ports, and the broker's inner-client credentials, which its own ports accept, are accepted for registration.
     *
     * @param settings the broker's settings
     * @param target   the NameServer's listener settings, changed in place
     * @return {@code target}
     */
    public static NettyServerConfig sharedSecurity(BrokerSettings settings, NettyServerConfig target) {
        NettyServerConfig broker = settings.netty();
        target.setAuthenticationEnabled(broker.isAuthenticationEnabled());
        target.setAuthorizationEnabled(broker.isAuthorizationEnabled());
        target.setAclFile(!broker.getAclFile().isEmpty() ? broker.getAclFile()
                : settings.store().rootPath().resolve("config").resolve("acl.json").toString());
        target.setAuthReplayWindowMillis(broker.getAuthReplayWindowMillis());
        target.setTlsMode(broker.getTlsMode());
        target.setTlsServerCertPath(broker.getTlsServerCertPath());
        target.setTlsServerKeyPath(broker.getTlsServerKeyPath());
        target.setTlsServerKeyPassword(broker.getTlsServerKeyPassword());
        target.setTlsServerTrustCertPath(broker.getTlsServerTrustCertPath());
        target.setTlsServerNeedClientAuth(broker.isTlsServerNeedClientAuth());
        return target;
    }

    /*
     * Checked before anything starts: otherwise the broker would start, fail to register with a refusal that does
     * not say which of its own settings is missing, and be stopped again.
     */
    private static void requireInnerClientSecurity(BrokerSettings settings, NettyServerConfig nameServer) {
        String name = settings.broker().getBrokerName();
        if (nameServer.isAuthenticationEnabled()
                && settings.broker().innerClient().getInnerClientAuthenticationCredentials().isEmpty()) {
            throw new EmbeddedServerException(EmbeddedServerException.Part.SECURITY, "The NameServer started with"
                    + " broker " + name + " authenticates (aclEnable/authenticationEnabled=true), but the broker's"
                    + " innerClientAuthenticationCredentials is not set: the broker cannot register. Set it to"
                    + " {\"accessKey\":\"<user>\",\"secretKey\":\"<password>\"} of a user of the users file"
                    + (nameServer.isAuthorizationEnabled() ? " with ADMIN on cluster:"
                            + settings.broker().getBrokerClusterName() : ""), null);
        }
        if ("enforcing".equals(nameServer.getTlsMode()) && !settings.broker().innerClient().isInnerClientTlsEnable()) {
            throw new EmbeddedServerException(EmbeddedServerException.Part.SECURITY, "The NameServer started with"
                    + " broker " + name + " has tlsMode=enforcing, but the broker's innerClientTlsEnable is false: the"
                    + " broker cannot register over plain TCP. Set innerClientTlsEnable=true and"
                    + " innerClientTlsTrustCertPath to a PEM file trusting the NameServer's certificate", null);
        }
    }

    /** Whether an address listens on every interface rather than one. */
    public static boolean isWildcard(String address) {
        return address != null && WILDCARDS.contains(address.trim());
    }

    /**
     * The address a client in this JVM reaches the NameServer at ({@code host:port}): loopback when it listens on
     * every interface.
     *
     * @throws IllegalStateException when this server has no NameServer
     */
    public String namesrvAddr() {
        if (nameServer == null) {
            throw new IllegalStateException("This embedded server runs no NameServer; its broker registers at "
                    + broker.config().getNamesrvAddr());
        }
        return isWildcard(nameServerBind) ? "127.0.0.1:" + nameServer.port() : nameServer.address();
    }

    /** The NameServer, or {@code null} when this server runs a broker alone. */
    public NameServer nameServer() {
        return nameServer;
    }

    /** The broker, or {@code null} when this server runs a NameServer alone. */
    public Broker broker() {
        return broker;
    }

    /** The broker's store folder. */
    public Path storeDir() {
        requireBroker();
        return broker.settings().store().rootPath();
    }

    /** Whether the broker runs (not closed, not stopped by a failure of its own). */
    public synchronized boolean isRunning() {
        return !closed && (broker == null || broker.isStarted());
    }

    /** The state of the broker's store, for health checks. */
    public StoreStatus storeStatus() {
        requireBroker();
        StoreHealth health = broker.store().health();
        String refusal = health.writeRefusal();
        return new StoreStatus(storeDir(), isRunning(), broker.settings().store().getDiskMaxUsedSpaceRatio(),
                broker.store().stats().putMessageCount(), broker.store().stats().putFailureCount(), refusal == null,
                refusal == null ? "UP" : String.valueOf(health.condition()), refusal);
    }

    private void requireBroker() {
        if (broker == null) {
            throw new IllegalStateException("This embedded server runs a NameServer alone, no broker");
        }
    }

    /** Stops the broker (flushing its store and unregistering) and then the NameServer; a failure is logged. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopAll(stops);
    }

    private static void stopAll(Deque<Stop> stops) {
        while (!stops.isEmpty()) {
            Stop stop = stops.pop();
            try {
                stop.action().run();
            } catch (RuntimeException e) {
                log.warn("Stopping {} failed: {}", stop.what(), e.toString());
            }
        }
    }

    /** What to start. Not thread-safe; one {@link #start()} per builder. */
    public static final class Builder {

        private NameServerConfig nameServerConfig;
        private NettyServerConfig nameServerNetty;
        private ControllerConfig controllerConfig;
        private BrokerSettings brokerSettings;
        private boolean keepConfiguredNameServers;
        private boolean metrics;

        private Builder() {
        }

        /** A NameServer on 127.0.0.1 with default settings. */
        public Builder nameServerOnPort(int port) {
            NettyServerConfig netty = new NettyServerConfig();
            netty.setListenPort(port);
            return nameServer(new NameServerConfig(), netty, new ControllerConfig());
        }

        /** A NameServer with its settings, its listener's and its embedded controller's. */
        public Builder nameServer(NameServerConfig config, NettyServerConfig netty, ControllerConfig controller) {
            this.nameServerConfig = Objects.requireNonNull(config, "config");
            this.nameServerNetty = Objects.requireNonNull(netty, "netty");
            this.controllerConfig = Objects.requireNonNull(controller, "controller");
            return this;
        }

        /**
         * A broker. With a NameServer, the broker registers at it: alone, or first among the NameServers its
         * settings name if {@link #keepConfiguredNameServers()} is set.
         */
        public Builder broker(BrokerSettings settings) {
            this.brokerSettings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** The broker registers at the embedded NameServer and at those its {@code namesrvAddr} names. */
        public Builder keepConfiguredNameServers() {
            this.keepConfiguredNameServers = true;
            return this;
        }

        /** Serves the Prometheus metrics of each part whose settings ask for them. */
        public Builder withMetrics() {
            this.metrics = true;
            return this;
        }

        /**
         * Starts the parts and returns once clients can find the broker (it has registered with its NameServers).
         *
         * @throws EmbeddedServerException when a part cannot start; what started before it is stopped again. With
         *                                 a NameServer that authenticates or enforces TLS, a broker without
         *                                 {@code innerClientAuthenticationCredentials} or {@code innerClientTlsEnable}
         *                                 fails as {@link EmbeddedServerException.Part#SECURITY} before anything
         *                                 starts
         */
        public EmbeddedServer start() {
            if (nameServerConfig == null && brokerSettings == null) {
                throw new IllegalStateException("Nothing to start: give a NameServer, a broker or both");
            }
            if (nameServerConfig != null && brokerSettings != null) {
                requireInnerClientSecurity(brokerSettings, nameServerNetty);
            }
            Deque<Stop> stops = new ArrayDeque<>();
            try {
                NameServer nameServer = nameServerConfig == null ? null : startNameServer(stops);
                String bind = nameServer == null ? null : nameServerNetty.getBindAddress();
                Broker broker = null;
                if (brokerSettings != null) {
                    if (nameServer != null) {
                        String own = isWildcard(bind) ? "127.0.0.1:" + nameServer.port() : nameServer.address();
                        String others = brokerSettings.broker().getNamesrvAddr();
                        brokerSettings.broker().setNamesrvAddr(!keepConfiguredNameServers || others.isEmpty() ? own
                                : own + ";" + others);
                    }
                    broker = startBroker(stops);
                }
                return new EmbeddedServer(nameServer, bind, broker, stops);
            } catch (RuntimeException e) {
                stopAll(stops);
                throw e;
            }
        }

        private NameServer startNameServer(Deque<Stop> stops) {
            NameServer nameServer = new NameServer(nameServerConfig, nameServerNetty, controllerConfig);
            NameServerMetrics nsMetrics = metrics && NameServerMetrics.enabled(nameServerConfig)
                    ? NameServerMetrics.attach(nameServer, nameServerConfig) : null;
            try {
                nameServer.start();
            } catch (RuntimeException e) {
                throw new EmbeddedServerException(EmbeddedServerException.Part.NAME_SERVER,
                        "Cannot start the NameServer on " + nameServerNetty.getBindAddress() + ":"
                                + nameServerNetty.getListenPort() + ": " + e.getMessage(), e);
            }
            stops.push(new Stop("the NameServer", nameServer::shutdown));
            if (nsMetrics != null) {
                try {
                    nsMetrics.start();
                } catch (IOException | RuntimeException e) {
                    throw new EmbeddedServerException(EmbeddedServerException.Part.NAME_SERVER_METRICS,
                            "Cannot serve the NameServer's metrics: " + e.getMessage(), e);
                }
                stops.push(new Stop("the NameServer's metrics", nsMetrics::shutdown));
            }
            return nameServer;
        }

        private Broker startBroker(Deque<Stop> stops) {
            BrokerSettings settings = brokerSettings;
            String name = settings.broker().getBrokerName();
            if (isWildcard(settings.netty().getBindAddress()) && settings.broker().getBrokerIP1().startsWith("127.")) {
                log.warn("The broker listens on every interface but tells clients to connect to {}; set brokerIP1 "
                        + "to the address other hosts should use", settings.broker().getBrokerIP1());
            }
            Broker broker = new Broker(settings);
            if (metrics && BrokerMetrics.enabled(settings.broker())) {
                BrokerMetrics.attach(broker);
            }
            try {
                broker.start();
            } catch (IOException | RuntimeException e) {
                // a broker that fails to start has stopped what it started
                throw brokerFailed(name, settings, e);
            }
            stops.push(new Stop("broker " + name, broker::shutdown));
            try {
                broker.registerWithNameServers().join();
            } catch (RuntimeException e) {
                throw brokerFailed(name, settings, e);
            }
            return broker;
        }

        private static EmbeddedServerException brokerFailed(String name, BrokerSettings settings, Exception e) {
            Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
            return new EmbeddedServerException(EmbeddedServerException.Part.BROKER, "Cannot start broker " + name
                    + " storing in " + settings.store().getStorePathRootDir() + ": " + cause.getMessage(), e);
        }
    }
}
