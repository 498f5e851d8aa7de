package dev.wharf.server;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.controller.Controller;
import dev.wharf.controller.ControllerConfig;
import dev.wharf.controller.ControllerPeers;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code wharf controller}: one node of a controller cluster (automatic failover of broker masters). */
@Command(name = "controller", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Runs one node of a controller cluster (3 or 5 nodes, Raft on Apache Ratis) that elects the "
                + "master of each broker name and fails it over when its heartbeats stop, until the process is "
                + "stopped (Ctrl-C or SIGTERM).",
                "Prints one line when ready: Wharf controller ID ready at HOST:PORT (Raft HOST:PORT, peers ..., data DIR)"},
        footerHeading = "%nExample (three nodes on one host):%n",
        footer = {"  wharf controller --id n0 --port 9878 --data c0 --peers n0=127.0.0.1:9870,n1=127.0.0.1:9871,n2=127.0.0.1:9872",
                "  wharf controller --id n1 --port 9879 --data c1 --peers n0=127.0.0.1:9870,n1=127.0.0.1:9871,n2=127.0.0.1:9872",
                "  wharf controller --id n2 --port 9880 --data c2 --peers n0=127.0.0.1:9870,n1=127.0.0.1:9871,n2=127.0.0.1:9872",
                "  brokers and admin commands then use controllerAddr 127.0.0.1:9878;127.0.0.1:9879;127.0.0.1:9880"})
final class ControllerServerCommand extends ForegroundCommand {

    @Option(names = "--peers", required = true, paramLabel = "ID=HOST:PORT,...",
            description = "Every node of the controller cluster with its Raft address (controllerPeers), the same "
                    + "list on every node, e.g. n0=127.0.0.1:9870,n1=127.0.0.1:9871,n2=127.0.0.1:9872.")
    String peers;

    @Option(names = "--id", required = true, paramLabel = "ID",
            description = "This node's id in --peers (controllerSelfId).")
    String id;

    @Option(names = "--port", defaultValue = "9878", paramLabel = "PORT",
            description = "Port where brokers and admin tools reach this node (default: ${DEFAULT-VALUE}; 0 = any "
                    + "free port). Not the Raft port, which --peers gives.")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "Address to listen on for brokers (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--data", paramLabel = "DIR",
            description = "Data folder of this node: Raft log and snapshots (controllerStorePath). Default: "
                    + "${sys:user.home}/wharf/controller/ID")
    Path data;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Controller configuration file (key=value: controllerHeartBeatTimeoutMills, "
                    + "scanNotActiveBrokerInterval, enableElectUncleanMaster, notifyBrokerRoleChanged, "
                    + "controllerElectionTimeoutMillis, controllerSnapshotThreshold, ...); the flags above override it.")
    Path config;

    @Override
    String start(Foreground foreground) throws Exception {
        Servers.checkPort("--port", port);
        ControllerConfig settings = settings();
        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(port);
        server.setBindAddress(bind);
        Controller controller = new Controller(settings);
        try {
            controller.start(server);
        } catch (UncheckedIOException | IllegalStateException e) {
            throw new CliException(ExitCodes.FAILED, "Cannot start controller " + id + ": " + e.getMessage(), e);
        }
        foreground.started("controller " + id, controller::shutdown);
        ControllerPeers parsed = ControllerPeers.parse(settings.getControllerPeers());
        return ReadyLine.controller(id, controller.address(), parsed.raftAddresses().get(id),
                String.join(",", parsed.ids()), settings.getControllerStorePath());
    }

    private ControllerConfig settings() throws Exception {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("controllerPeers", peers);
        flags.put("controllerSelfId", id);
        if (data != null) {
            flags.put("controllerStorePath", data.toAbsolutePath().normalize().toString());
        }
        ConfigLayers layers = ConfigLayers.of("controller configuration file", config, Map.of("controllerStorePath",
                Path.of(System.getProperty("user.home"), "wharf", "controller", id).toString()), flags);
        ControllerConfig c = new ControllerConfig();
        try {
            BeanBinder.bindStrict(layers.merged(), layers.source(), c);
            ControllerPeers parsed = ControllerPeers.parse(c.getControllerPeers());
            if (!parsed.raftAddresses().containsKey(c.getControllerSelfId())) {
                throw new IllegalArgumentException("--id " + c.getControllerSelfId() + " is not one of the --peers "
                        + parsed.ids() + "; give this node's id");
            }
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        return c;
    }
}
