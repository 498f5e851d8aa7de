package dev.wharf.namesrv;

import dev.wharf.common.util.NamedThreadFactory;
import dev.wharf.controller.Controller;
import dev.wharf.controller.ControllerConfig;
import dev.wharf.remoting.ChannelEventListener;
import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.remoting.RequestObserver;
import dev.wharf.remoting.auth.ServerSecurity;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NameServer: a route registry that brokers register with and clients ask. Several run side by side without
 * talking to each other; each broker registers with all of them.
 */
public final class NameServer {

    private static final Logger log = LoggerFactory.getLogger(NameServer.class);

    private final NameServerConfig config;
    private final NettyServerConfig serverConfig;
    private final RouteInfoManager routes = new RouteInfoManager();
    private final ControllerConfig controllerConfig;
    private Controller controller;
    private NettyRemotingServer server;
    private ScheduledExecutorService scheduler;
    private ThreadPoolExecutor executor;
    private volatile RequestObserver requestObserver;
    private ServerSecurity security;

    public NameServer(NameServerConfig config, NettyServerConfig serverConfig) {
        this(config, serverConfig, new ControllerConfig());
    }

    /**
     * A NameServer that also runs a controller node on its port when {@code enableControllerInNamesrv} is set.
     */
    public NameServer(NameServerConfig config, NettyServerConfig serverConfig, ControllerConfig controllerConfig) {
        this.config = config;
        this.serverConfig = serverConfig;
        this.controllerConfig = controllerConfig;
    }

    /** A NameServer on 127.0.0.1 with the given port (0 = any free port) and default settings. */
    public static NameServer onPort(int port) {
        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(port);
        return new NameServer(new NameServerConfig(), server);
    }

    public synchronized void start() {
        executor = RemotingExecutors.bounded("namesrv-processor", 8, 10_000);
        server = new NettyRemotingServer(serverConfig);
        try {
            security = ServerSecurity.install(server, serverConfig, null, "NameServer");
            routes.setRegistrationsAuthorized(security.authenticated() && serverConfig.isAuthorizationEnabled());
        } catch (RuntimeException e) {
            executor.shutdownNow();
            server = null;
            throw e;
        }
        server.registerDefaultProcessor(new NameServerProcessor(routes), executor);
        server.setRequestObserver(requestObserver);
        if (config.isEnableControllerInNamesrv()) {
            controller = new Controller(controllerConfig);
            NettyRemotingServer s = server;
            try {
                controller.startOn(server, s::localAddress);
            } catch (RuntimeException e) {
                controller.shutdown();
                controller = null;
                executor.shutdownNow();
                server = null;
                throw e;
            }
        }
        Controller embedded = controller;
        server.setChannelEventListener(new ChannelEventListener() {
            @Override
            public void onClose(String remoteAddress, RemotingChannel channel) {
                routes.onChannelClosed(channel);
                if (embedded != null) {
                    embedded.onChannelClosed(channel);
                }
            }
        });
        server.start();
        scheduler = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("namesrv-scan"));
        scheduler.scheduleAtFixedRate(this::scanNotActiveBrokers, config.getScanNotActiveBrokerInterval(),
                config.getScanNotActiveBrokerInterval(), TimeUnit.MILLISECONDS);
        log.info("NameServer listening on {} ({})", address(), security.describe());
    }

    private void scanNotActiveBrokers() {
        try {
            routes.scanNotActiveBrokers(System.currentTimeMillis(), config.getBrokerChannelExpiredTime());
        } catch (RuntimeException e) {
            log.warn("Scan of silent brokers failed: {}", e.toString());
        }
    }

    public synchronized void shutdown() {
        if (server == null) {
            return;
        }
        scheduler.shutdownNow();
        server.shutdown();
        executor.shutdownNow();
        if (controller != null) {
            controller.shutdown();
            controller = null;
        }
        server = null;
        log.info("NameServer stopped");
    }

    public int port() {
        return server.localPort();
    }

    /** "host:port" clients and brokers use to reach this NameServer. */
    public String address() {
        return server.localAddress();
    }

    /** The embedded controller node, or null unless {@code enableControllerInNamesrv}. */
    public Controller controller() {
        return controller;
    }

    /** Tells {@code observer} of every request answered (metrics); set it before {@link #start()}. */
    public void setRequestObserver(RequestObserver observer) {
        this.requestObserver = observer;
    }

    /** Connections open now (brokers and clients); 0 when not started. */
    public int connectionCount() {
        NettyRemotingServer s = server;
        return s == null ? 0 : s.connectionCount();
    }

    /** Authentication and TLS of this NameServer, e.g. for the ready line; null before start. */
    public ServerSecurity security() {
        return security;
    }

    /** The route tables (for tests and the admin view). */
    public RouteInfoManager routes() {
        return routes;
    }
}
