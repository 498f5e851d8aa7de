package dev.wharf.server;

import dev.wharf.server.admin.AdminCommand;
import dev.wharf.server.cli.ExitCodes;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The {@code wharf} command: servers in the foreground and administration commands. */
@Command(name = "wharf", mixinStandardHelpOptions = true, versionProvider = WharfCli.Version.class,
        usageHelpAutoWidth = true,
        description = "Wharf, a RocketMQ-style message broker: run a NameServer, a broker or both, and administer them.",
        subcommands = {NameServerCommand.class, BrokerCommand.class, StandaloneCommand.class, AdminCommand.class,
                ControllerServerCommand.class,
                HelpCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  wharf standalone",
                "      a NameServer on port 9876 and a broker on 10911, store in ${sys:user.home}/wharf/store",
                "  wharf admin send --topic T --body hello",
                "      send a message through the NameServer at 127.0.0.1:9876",
                "  wharf admin consume --topic T --group G",
                "      print the messages group G has not consumed yet, and commit its offsets",
                "  wharf admin consumer-progress --group G",
                "      per queue: broker offset, consumer offset and lag of group G"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:the operation failed (refused, not found, cannot start)",
                "2:bad command line or input", "3:the NameServer or a broker did not answer"})
public final class WharfCli implements Runnable {

    @Spec
    private CommandSpec spec;

    private final StopSignal stopSignal;

    private WharfCli(StopSignal stopSignal) {
        this.stopSignal = Objects.requireNonNull(stopSignal, "stopSignal");
    }

    /**
     * The command line with Wharf's error reporting (one line on stderr, exit codes of {@link ExitCodes}).
     *
     * @param stopSignal how foreground servers learn to stop ({@link StopSignal#jvmShutdown()} in the process)
     */
    public static CommandLine commandLine(StopSignal stopSignal) {
        CommandLine cmd = new CommandLine(new WharfCli(stopSignal));
        ErrorReporter reporter = new ErrorReporter();
        cmd.setExecutionExceptionHandler(reporter);
        cmd.setParameterExceptionHandler(reporter);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        return cmd;
    }

    StopSignal stopSignal() {
        return stopSignal;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "Missing command: give one of namesrv, broker, standalone, controller or admin.");
    }

    /** The version, git commit and build time the build recorded ({@link BuildInfo}). */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return BuildInfo.current().lines();
        }
    }
}
