package dev.wharf.server;

import dev.wharf.namesrv.NameServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

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
            description = "NameServer configuration file (key=value lines with RocketMQ's key names, e.g. listenPort, "
                    + "bindAddress, scanNotActiveBrokerInterval); --port and --bind override its values.")
    Path config;

    @ParentCommand
    WharfCli root;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Servers.checkPort("--port", port);
        // the flags' defaults must not hide the file's listenPort and bindAddress: only flags given override it
        ParseResult given = spec.commandLine().getParseResult();
        NameServerSettings settings = NameServerSettings.assemble(config,
                given.hasMatchedOption("--port") ? port : null, given.hasMatchedOption("--bind") ? bind : null);
        Foreground foreground = new Foreground();
        NameServer nameServer = Servers.startNameServer(settings.nameServer(), settings.netty(), foreground);
        return foreground.runUntilStopped(spec.commandLine().getOut(), ReadyLine.nameServer(nameServer.address()),
                root.stopSignal());
    }
}
