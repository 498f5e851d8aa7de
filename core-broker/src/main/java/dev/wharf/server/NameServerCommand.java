package dev.wharf.server;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.controller.ControllerConfig;
import dev.wharf.controller.ControllerPeers;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code wharf namesrv}: a NameServer in the foreground. */
@Command(name = "namesrv", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Runs a NameServer (the route registry brokers register with and clients ask) until the "
                + "process is stopped (Ctrl-C or SIGTERM).",
                "Prints one line when ready: Wharf NameServer ready at HOST:PORT"})
final class NameServerCommand implements Callable<Integer> {

    @Option(names = "--port", defaultValue = "9876", paramLabel = "PORT",
            description = "Port to listen on (default: ${DEFAULT-VALUE}; 0 = any free port).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
    String bind;

    @Option(names = "--config", paramLabel = "FILE",
            description = "NameServer configuration file (key=value: scanNotActiveBrokerInterval, "
                    + "brokerChannelExpiredTime, enableControllerInNamesrv and the controller keys controllerPeers, "
                    + "controllerSelfId, controllerStorePath, controllerHeartBeatTimeoutMills, ...).")
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

    @ParentCommand
    WharfCli root;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Servers.checkPort("--port", port);
        NameServerConfig nameServerConfig = new NameServerConfig();
        ControllerConfig controllerConfig = new ControllerConfig();
        settings(nameServerConfig, controllerConfig);
        Foreground foreground = new Foreground();
        NameServer nameServer = Servers.startNameServer(bind, port, nameServerConfig, controllerConfig, foreground);
        String line = ReadyLine.nameServer(nameServer.address());
        if (nameServer.controller() != null) {
            line += " (controller " + controllerConfig.getControllerSelfId() + ", peers "
                    + controllerConfig.getControllerPeers() + ", data " + controllerConfig.getControllerStorePath() + ")";
        }
        return foreground.runUntilStopped(spec.commandLine().getOut(), line, root.stopSignal());
    }

    private void settings(NameServerConfig nameServerConfig, ControllerConfig controllerConfig) throws Exception {
        Map<String, String> merged = new LinkedHashMap<>();
        if (config != null) {
            merged.putAll(BrokerSettingsAssembler.read(config));
        }
        if (controllerPeers != null) {
            merged.put("enableControllerInNamesrv", "true");
            merged.put("controllerPeers", controllerPeers);
        }
        if (controllerId != null) {
            merged.put("controllerSelfId", controllerId);
        }
        if (controllerData != null) {
            merged.put("controllerStorePath", controllerData.toAbsolutePath().normalize().toString());
        }
        try {
            BeanBinder.bindStrict(merged, config == null ? "the command line flags"
                    : "the configuration file " + config + " or the command line flags", nameServerConfig,
                    controllerConfig);
            if (nameServerConfig.isEnableControllerInNamesrv()) {
                if (!merged.containsKey("controllerStorePath")) {
                    controllerConfig.setControllerStorePath(Path.of(System.getProperty("user.home"), "wharf",
                            "controller", controllerConfig.getControllerSelfId()).toString());
                }
                ControllerPeers peers = ControllerPeers.parse(controllerConfig.getControllerPeers());
                if (!peers.raftAddresses().containsKey(controllerConfig.getControllerSelfId())) {
                    throw new IllegalArgumentException("the controller id '" + controllerConfig.getControllerSelfId()
                            + "' (--controller-id, controllerSelfId) is not one of the controller peers " + peers.ids());
                }
            }
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
    }
}
