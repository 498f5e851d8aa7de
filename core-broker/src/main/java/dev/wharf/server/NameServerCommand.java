package dev.wharf.server;

import dev.wharf.controller.ControllerConfig;
import dev.wharf.controller.ControllerPeers;
import dev.wharf.namesrv.NameServer;
import dev.wharf.server.cli.CliException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/** {@code wharf namesrv}: a NameServer in the foreground. */
@Command(name = "namesrv", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Runs a NameServer (the route registry brokers register with and clients ask) until the "
                + "process is stopped (Ctrl-C or SIGTERM).",
                "Prints one line when ready: Wharf NameServer ready at HOST:PORT"})
final class NameServerCommand extends ForegroundCommand {

    @Option(names = "--port", defaultValue = "9876", paramLabel = "PORT",
            description = "Port to listen on (default: ${DEFAULT-VALUE}; 0 = any free port).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
    String bind;

    @Option(names = "--config", paramLabel = "FILE",
            description = "NameServer configuration file (key=value lines with RocketMQ's key names: listenPort, "
                    + "bindAddress, scanNotActiveBrokerInterval, brokerChannelExpiredTime, enableControllerInNamesrv "
                    + "and the controller keys controllerPeers, controllerSelfId, controllerStorePath, ...); "
                    + "flags given override its values.")
    Path config;

    @Option(names = "--controller-peers", paramLabel = "ID=HOST:PORT,...",
            description = "Also run a controller node inside this NameServer (enableControllerInNamesrv=true), "
                    + "answering on the NameServer port; every controller node with its Raft address "
                    + "(controllerPeers).")
    String controllerPeers;

    @Option(names = "--controller-id", paramLabel = "ID",
            description = "This NameServer's controller node id in --controller-peers (controllerSelfId).")
    String controllerId;

    @Option(names = "--controller-data", paramLabel = "DIR",
            description = "Data folder of the embedded controller (controllerStorePath). Default: "
                    + "${sys:user.home}/wharf/controller/ID")
    Path controllerData;

    @Override
    String start(Foreground foreground) throws Exception {
        Servers.checkPort("--port", port);
        // the flags' defaults must not hide the file's listenPort and bindAddress: only flags given override it
        ParseResult given = spec.commandLine().getParseResult();
        NameServerSettings settings = settings(given.hasMatchedOption("--port") ? port : null,
                given.hasMatchedOption("--bind") ? bind : null);
        ControllerConfig controllerConfig = settings.controller();
        NameServer nameServer = Servers.startNameServer(settings.nameServer(), settings.netty(), controllerConfig,
                foreground).nameServer();
        String line = ReadyLine.nameServer(nameServer.address());
        if (nameServer.controller() != null) {
            line += " (controller " + controllerConfig.getControllerSelfId() + ", peers "
                    + controllerConfig.getControllerPeers() + ", data " + controllerConfig.getControllerStorePath() + ")";
        }
        return line;
    }

    private NameServerSettings settings(Integer givenPort, String givenBind) throws Exception {
        Map<String, String> flags = new LinkedHashMap<>();
        if (controllerPeers != null) {
            flags.put("enableControllerInNamesrv", "true");
            flags.put("controllerPeers", controllerPeers);
        }
        if (controllerId != null) {
            flags.put("controllerSelfId", controllerId);
        }
        if (controllerData != null) {
            flags.put("controllerStorePath", controllerData.toAbsolutePath().normalize().toString());
        }
        try {
            NameServerSettings settings = NameServerSettings.assemble(config, givenPort, givenBind, flags);
            ControllerConfig controllerConfig = settings.controller();
            if (settings.nameServer().isEnableControllerInNamesrv()) {
                // not set anywhere: one folder per node id, so that nodes of one machine do not share one
                if (new ControllerConfig().getControllerStorePath().equals(controllerConfig.getControllerStorePath())) {
                    controllerConfig.setControllerStorePath(Path.of(System.getProperty("user.home"), "wharf",
                            "controller", controllerConfig.getControllerSelfId()).toString());
                }
                ControllerPeers peers = ControllerPeers.parse(controllerConfig.getControllerPeers());
                if (!peers.raftAddresses().containsKey(controllerConfig.getControllerSelfId())) {
                    throw new IllegalArgumentException("the controller id '" + controllerConfig.getControllerSelfId()
                            + "' (--controller-id, controllerSelfId) is not one of the controller peers " + peers.ids());
                }
            }
            return settings;
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
    }
}
