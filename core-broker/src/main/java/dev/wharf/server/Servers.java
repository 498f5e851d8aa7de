package dev.wharf.server;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.controller.ControllerConfig;
import dev.wharf.embedded.EmbeddedServer;
import dev.wharf.embedded.EmbeddedServerException;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;

/** Starts the servers of the foreground commands and adds the command line's hints to their start-up failures. */
final class Servers {

    private Servers() {
    }

    static int checkPort(String option, int port) throws CliException {
        if (port < 0 || port > 65_535) {
            throw CliException.usage(option + " must be a port from 0 to 65535 (0 = any free port), got " + port + ".");
        }
        return port;
    }

    /** A NameServer with its listener's settings (and its embedded controller's, if enableControllerInNamesrv). */
    static EmbeddedServer startNameServer(NameServerConfig config, NettyServerConfig server,
                                          ControllerConfig controller, Foreground foreground) throws CliException {
        return start(EmbeddedServer.builder().nameServer(config, server, controller), foreground);
    }

    /** Starts the broker and registers it with its NameServers before returning, so clients find it at once. */
    static EmbeddedServer startBroker(BrokerSettings settings, Foreground foreground) throws CliException {
        return start(EmbeddedServer.builder().broker(settings), foreground);
    }

    /** A NameServer and a broker registered with it first, then with the NameServers its settings name. */
    static EmbeddedServer startStandalone(NettyServerConfig nameServer, BrokerSettings settings,
                                          Foreground foreground) throws CliException {
        return start(EmbeddedServer.builder().nameServer(new NameServerConfig(), nameServer, new ControllerConfig())
                .broker(settings).keepConfiguredNameServers(), foreground);
    }

    private static EmbeddedServer start(EmbeddedServer.Builder builder, Foreground foreground) throws CliException {
        EmbeddedServer server;
        try {
            server = builder.withMetrics().start();
        } catch (EmbeddedServerException e) {
            String hint = e.part() == EmbeddedServerException.Part.NAME_SERVER
                    ? " (the NameServer port is set with --port)." : "";
            throw new CliException(ExitCodes.FAILED, e.getMessage() + hint, e);
        }
        foreground.started(server.broker() == null ? "the NameServer" : server.nameServer() == null
                ? "broker " + server.broker().config().getBrokerName() : "the NameServer and its broker", server::close);
        return server;
    }
}
