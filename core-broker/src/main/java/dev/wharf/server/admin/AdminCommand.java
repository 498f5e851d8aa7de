package dev.wharf.server.admin;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.impl.ClientSecurity;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.server.cli.CliException;
import java.util.function.UnaryOperator;
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
                ClusterCheckCommand.class, UserCreateCommand.class, UserDeleteCommand.class, AclSetCommand.class,
                AclListCommand.class})
public final class AdminCommand implements Runnable {

    @Option(names = {"-n", "--namesrv"}, scope = ScopeType.INHERIT, paramLabel = "HOST:PORT",
            defaultValue = "${env:WHARF_NAMESRV:-127.0.0.1:9876}",
            description = "NameServer address, several separated by ';' (default: ${DEFAULT-VALUE}, or the "
                    + "WHARF_NAMESRV environment variable).")
    String namesrv;

    @Option(names = "--json", scope = ScopeType.INHERIT,
            description = "Print the result as JSON instead of aligned text.")
    boolean json;

    @Option(names = "--user", scope = ScopeType.INHERIT, paramLabel = "USER",
            defaultValue = "${env:WHARF_USER}",
            description = "User to sign requests as, on servers with authentication on (default: the WHARF_USER"
                    + " environment variable).")
    String user;

    @Option(names = "--password", scope = ScopeType.INHERIT, paramLabel = "PASSWORD", arity = "0..1",
            interactive = true, defaultValue = "${env:WHARF_PASSWORD}",
            description = "Password of --user: give --password alone to be asked for it, or set WHARF_PASSWORD;"
                    + " a password typed on the command line stays in the shell's history.")
    String password;

    @Option(names = "--tls", scope = ScopeType.INHERIT,
            description = "Speak TLS to the NameServer and brokers.")
    boolean tls;

    @Option(names = "--tls-trust-cert", scope = ScopeType.INHERIT, paramLabel = "PEM",
            description = "PEM certificates trusted as the servers' (default: the JDK's authorities).")
    String tlsTrustCert;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing admin command: give one of "
                + String.join(", ", spec.subcommands().keySet()) + ".");
    }

    AdminSession open() throws CliException, ClientException, InterruptedException {
        return AdminSession.open(namesrv, this::secure);
    }

    /** The credentials and TLS of the options, for a client outside an admin session (controllers). */
    UnaryOperator<NettyRemotingClient> clientSetup() throws CliException {
        ClientConfig config = new ClientConfig();
        secure(config);
        return remoting -> ClientSecurity.apply(remoting, config);
    }

    /** Adds the options' credentials and TLS to a client configuration. */
    private void secure(ClientConfig config) throws CliException {
        if (user != null && !user.isBlank()) {
            if (password == null || password.isEmpty()) {
                throw CliException.usage("--user " + user + " needs a password: give --password (to be asked),"
                        + " or set WHARF_PASSWORD");
            }
            config.withCredentials(user, password);
        }
        config.setTlsEnable(tls);
        config.setTlsTrustCertPath(tlsTrustCert);
    }

    Output output() {
        return new Output(spec.commandLine().getOut(), json);
    }
}
