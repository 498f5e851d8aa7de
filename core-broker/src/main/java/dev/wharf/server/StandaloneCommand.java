package dev.wharf.server;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.embedded.EmbeddedServer;
import dev.wharf.remoting.NettyServerConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code wharf standalone}: a NameServer and a broker registered with it, in one JVM. */
@Command(name = "standalone", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Runs a NameServer and a broker registered with it in one process, until the process is "
                + "stopped (Ctrl-C or SIGTERM stops both gracefully). The store lives in ${sys:user.home}/wharf/store "
                + "unless --store or the configuration file says otherwise.",
                "Prints one line when ready: Wharf standalone ready: NameServer at HOST:PORT, broker NAME at HOST:PORT (...)"})
final class StandaloneCommand extends ForegroundCommand {

    @Option(names = "--port", defaultValue = "9876", paramLabel = "PORT",
            description = "NameServer port (default: ${DEFAULT-VALUE}; 0 = any free port).")
    int port;

    @Option(names = "--broker-port", paramLabel = "PORT",
            description = "Broker port (listenPort). Default: 10911; 0 = any free port.")
    Integer brokerPort;

    @Mixin
    BrokerOptions options;

    @Override
    String start(Foreground foreground) throws Exception {
        Servers.checkPort("--port", port);
        Map<String, String> flags = new LinkedHashMap<>();
        if (brokerPort != null) {
            flags.put("listenPort", String.valueOf(Servers.checkPort("--broker-port", brokerPort)));
        }
        BrokerSettings settings = options.settings(flags);
        String bind = settings.netty().getBindAddress();
        EmbeddedServer server = Servers.startStandalone(nameServerNetty(settings, bind), settings, foreground);
        return ReadyLine.standalone(server.nameServer().address(), settings.broker().getBrokerName(),
                server.broker().address(), settings.store().getStorePathRootDir(),
                settings.store().getFlushDiskType().name());
    }

    /**
     * The NameServer of a standalone server listens like the broker and shares its security: the same users file
     * (the broker's, by default under its store), the same authentication, authorization and TLS.
     */
    private NettyServerConfig nameServerNetty(BrokerSettings settings, String bind) {
        NettyServerConfig ns = EmbeddedServer.sharedSecurity(settings, new NettyServerConfig());
        ns.setListenPort(port);
        ns.setBindAddress(bind);
        return ns;
    }
}
