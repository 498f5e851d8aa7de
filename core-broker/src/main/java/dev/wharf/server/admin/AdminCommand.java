package dev.wharf.server.admin;

import dev.wharf.client.ClientException;
import dev.wharf.server.CliException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** {@code wharf admin}: the administration commands and the options they share. */
@Command(name = "admin", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = "Administration commands against a NameServer and the brokers registered with it.",
        subcommands = {TopicsCommand.class, TopicCreateCommand.class, TopicDeleteCommand.class, BrokersCommand.class,
                SendCommand.class, ConsumeCommand.class, ConsumerProgressCommand.class, QueryKeyCommand.class,
                QueryIdCommand.class, ResetOffsetCommand.class, DlqListCommand.class, DlqResendCommand.class,
                ControllerStatusCommand.class, BrokerGroupsCommand.class, ElectMasterCommand.class,
                ClusterCheckCommand.class})
public final class AdminCommand implements Runnable {

    @Option(names = {"-n", "--namesrv"}, scope = ScopeType.INHERIT, paramLabel = "HOST:PORT",
            defaultValue = "${env:WHARF_NAMESRV:-127.0.0.1:9876}",
            description = "NameServer address, several separated by ';' (default: ${DEFAULT-VALUE}, or the "
                    + "WHARF_NAMESRV environment variable).")
    String namesrv;

    @Option(names = "--json", scope = ScopeType.INHERIT,
            description = "Print the result as JSON instead of aligned text.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing admin command: give one of "
                + String.join(", ", spec.subcommands().keySet()) + ".");
    }

    AdminSession open() throws CliException, ClientException, InterruptedException {
        return AdminSession.open(namesrv);
    }

    Output output() {
        return new Output(spec.commandLine().getOut(), json);
    }
}
