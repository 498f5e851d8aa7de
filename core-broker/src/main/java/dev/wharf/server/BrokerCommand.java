package dev.wharf.server;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code wharf broker}: a broker in the foreground, registered with the NameServers it is given. */
@Command(name = "broker", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Runs a broker until the process is stopped (Ctrl-C or SIGTERM stops it gracefully: "
                + "messages flushed, consumer offsets saved).",
                "Prints one line when ready: Wharf broker NAME ready at HOST:PORT (...)"})
final class BrokerCommand extends ForegroundCommand {

    @Mixin
    BrokerOptions options;

    @Option(names = "--namesrv", paramLabel = "HOST:PORT[;HOST:PORT]",
            description = "NameServers to register with (namesrvAddr), e.g. 127.0.0.1:9876.")
    String namesrv;

    @Option(names = "--port", paramLabel = "PORT",
            description = "Port to listen on (listenPort). Default: 10911; 0 = any free port.")
    Integer port;

    /** Replica roles (brokerRole). */
    enum Role { ASYNC_MASTER, SYNC_MASTER, SLAVE }

    @Option(names = "--role", paramLabel = "SYNC_MASTER|ASYNC_MASTER|SLAVE",
            description = "Replication role (brokerRole). ASYNC_MASTER: a send returns once stored here;"
                    + " SYNC_MASTER: once a slave holds it too; SLAVE: copies its master, refuses sends."
                    + " Default: ASYNC_MASTER for --broker-id 0, SLAVE above 0.")
    Role role;

    @Option(names = "--broker-id", paramLabel = "N",
            description = "brokerId: 0 for a master (default), above 0 for each slave of the same --name (a slave"
                    + " needs no --role; a master role with an id above 0 is refused).")
    Long brokerId;

    @Option(names = "--ha-port", paramLabel = "PORT",
            description = "Port a master accepts its slaves on (haListenPort). Default: --port + 1; 0 = any free port.")
    Integer haPort;

    @Option(names = "--ha-master", paramLabel = "HOST:PORT",
            description = "A slave's master HA address (haMasterAddress), e.g. 127.0.0.1:10912. Default: learnt"
                    + " from the NameServers, where the master publishes it.")
    String haMaster;

    @Override
    String start(Foreground foreground) throws Exception {
        Map<String, String> flags = new LinkedHashMap<>();
        if (port != null) {
            flags.put("listenPort", String.valueOf(Servers.checkPort("--port", port)));
        }
        if (namesrv != null) {
            flags.put("namesrvAddr", namesrv);
        }
        if (role != null) {
            flags.put("brokerRole", role.name());
        }
        if (brokerId != null) {
            flags.put("brokerId", String.valueOf(brokerId));
        }
        if (haPort != null) {
            flags.put("haListenPort", haPort == 0 ? "0" : String.valueOf(Servers.checkPort("--ha-port", haPort)));
        }
        if (haMaster != null) {
            flags.put("haMasterAddress", haMaster);
        }
        BrokerSettings settings = options.settings(flags);
        Broker broker = Servers.startBroker(settings, foreground).broker();
        return ReadyLine.broker(settings.broker().getBrokerName(), broker.address(),
                settings.broker().getBrokerClusterName(), settings.broker().namesrvAddrList(),
                settings.store().getStorePathRootDir(), settings.store().getFlushDiskType().name() + ", "
                        + (settings.controller().isEnableControllerMode() ? "controller mode (fenced until the"
                        + " controllers elect a master)" : settings.ha().getBrokerRole()) + (broker.haAddress() == null ? ""
                        : ", HA port " + broker.ha().haPort()));
    }
}
