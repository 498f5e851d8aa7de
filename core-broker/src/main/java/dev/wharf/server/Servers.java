package dev.wharf.server;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.controller.ControllerConfig;
import dev.wharf.metrics.BrokerMetrics;
import dev.wharf.metrics.NameServerMetrics;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts the servers of the foreground commands and words their start-up failures for the command line. */
final class Servers {

    private static final Logger log = LoggerFactory.getLogger(Servers.class);

    private Servers() {
    }

    static int checkPort(String option, int port) throws CliException {
        if (port < 0 || port > 65_535) {
            throw CliException.usage(option + " must be a port from 0 to 65535 (0 = any free port), got " + port + ".");
        }
        return port;
    }

    static NameServer startNameServer(String bind, int port, Foreground foreground) throws CliException {
        return startNameServer(bind, port, new NameServerConfig(), new ControllerConfig(), foreground);
    }

    /** A NameServer with its settings (and those of its embedded controller, if enableControllerInNamesrv). */
    static NameServer startNameServer(String bind, int port, NameServerConfig config, ControllerConfig controller,
                                      Foreground foreground) throws CliException {
        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(port);
        server.setBindAddress(bind);
        return startNameServer(config, server, controller, foreground);
    }

    /** A NameServer with its listener's settings (and its embedded controller's, if enableControllerInNamesrv). */
    static NameServer startNameServer(NameServerConfig config, NettyServerConfig server, ControllerConfig controller,
                                      Foreground foreground) throws CliException {
        NameServer nameServer = new NameServer(config, server, controller);
        NameServerMetrics metrics = NameServerMetrics.enabled(config) ? NameServerMetrics.attach(nameServer, config)
                : null;
        try {
            nameServer.start();
        } catch (RuntimeException e) {
            throw new CliException(ExitCodes.FAILED, "Cannot start the NameServer on " + server.getBindAddress() + ":"
                    + server.getListenPort() + ": " + e.getMessage() + " (the NameServer port is set with --port).", e);
        }
        foreground.started("the NameServer", nameServer::shutdown);
        if (metrics != null) {
            try {
                metrics.start();
            } catch (IOException e) {
                throw new CliException(ExitCodes.FAILED, e.getMessage(), e);
            }
            foreground.started("the NameServer's metrics", metrics::shutdown);
        }
        return nameServer;
    }

    /** Starts the broker and registers it with its NameServers before returning, so clients find it at once. */
    static Broker startBroker(BrokerSettings settings, Foreground foreground) throws CliException, IOException {
        if (BrokerOptions.isWildcard(settings.netty().getBindAddress())
                && settings.broker().getBrokerIP1().startsWith("127.")) {
            log.warn("The broker listens on every interface but tells clients to connect to {}; set brokerIP1 in "
                    + "the configuration file to the address other hosts should use", settings.broker().getBrokerIP1());
        }
        Broker broker = new Broker(settings);
        if (BrokerMetrics.enabled(settings.broker())) {
            BrokerMetrics.attach(broker);
        }
        try {
            broker.start();
        } catch (IllegalStateException e) {
            throw new CliException(ExitCodes.FAILED, "Cannot start broker " + settings.broker().getBrokerName()
                    + ": " + e.getMessage(), e);
        }
        foreground.started("broker " + settings.broker().getBrokerName(), broker::shutdown);
        broker.registerWithNameServers().join();
        return broker;
    }

    /** The address a broker in the same process registers at: loopback when the NameServer listens everywhere. */
    static String localAddressOf(NameServer nameServer, String bind) {
        return BrokerOptions.isWildcard(bind) ? "127.0.0.1:" + nameServer.port() : nameServer.address();
    }
}
