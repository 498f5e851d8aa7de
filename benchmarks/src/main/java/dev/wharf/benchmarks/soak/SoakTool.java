package dev.wharf.benchmarks.soak;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of the soak tool; see {@link SoakRun} for what a run does. Exit code 0 when every acknowledged
 * message was delivered or is listed in the quarantine report (and nothing corrupted was delivered, no refusal
 * during a disk-full episode said anything but "disk full", the broker never died by itself), 1 when not, 2
 * when the run could not be carried out.
 */
@Command(name = "wharf-soak", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Runs a broker in a child process on a small file system it mounts (root needed) under "
                + "steady load, injecting kill -9, commit-log corruption and disk-full episodes in turn, and checks "
                + "at the end that no acknowledged message was lost."})
public final class SoakTool implements Callable<Integer> {

    private static final Pattern DURATION = Pattern.compile("(\\d+)([smh]?)");

    @Option(names = "--duration", defaultValue = "30m", paramLabel = "N[s|m|h]",
            description = "How long the load and the episodes run (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = "--episode-every", defaultValue = "45s", paramLabel = "N[s|m|h]",
            description = "Pause between two episodes; they take turns: kill -9, disk full, corruption "
                    + "(default: ${DEFAULT-VALUE}).")
    String episodeEvery;

    @Option(names = "--rate", defaultValue = "400", paramLabel = "MSGS_PER_SEC",
            description = "Total send rate of all producers (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--producers", defaultValue = "2", paramLabel = "N",
            description = "Producer threads, each with its own connection (default: ${DEFAULT-VALUE}).")
    int producers;

    @Option(names = "--size", defaultValue = "512", paramLabel = "BYTES",
            description = "Body size (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--queues", defaultValue = "8", paramLabel = "N",
            description = "Queues of the soak topic (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--disk-mib", defaultValue = "2048", paramLabel = "MIB",
            description = "Size of the file system the store lives on (default: ${DEFAULT-VALUE}).")
    int diskMib;

    @Option(names = "--fs", defaultValue = "ext4", paramLabel = "ext4|tmpfs",
            description = "ext4 in a loop-mounted image file (falls back to tmpfs when that fails), or tmpfs "
                    + "(default: ${DEFAULT-VALUE}).")
    SoakDisk.Kind fs;

    @Option(names = "--commit-log-mib", defaultValue = "64", paramLabel = "MIB",
            description = "Commit-log file size (mappedFileSizeCommitLog; default: ${DEFAULT-VALUE}).")
    int commitLogMib;

    @Option(names = "--flush", defaultValue = "async", paramLabel = "async|sync",
            description = "Flush mode of the broker (default: ${DEFAULT-VALUE}).")
    String flush;

    @Option(names = "--full-seconds", defaultValue = "10", paramLabel = "SEC",
            description = "How long the disk stays full in a disk-full episode (default: ${DEFAULT-VALUE}).")
    int fullSeconds;

    @Option(names = "--backlog-seconds", defaultValue = "8", paramLabel = "SEC",
            description = "How long the consumer pauses before a corruption episode, so that the damage lands "
                    + "in messages not yet delivered (default: ${DEFAULT-VALUE}).")
    int backlogSeconds;

    @Option(names = "--check-crc-on-read", defaultValue = "true", arity = "1", paramLabel = "true|false",
            description = "The broker's checkCRCOnRead: with false a damaged body is skipped by the client's own "
                    + "CRC check and never reaches the broker's quarantine report (default: ${DEFAULT-VALUE}).")
    boolean checkCrcOnRead;

    @Option(names = "--broker-jvm-opts", defaultValue = "-Xms512m -Xmx512m", paramLabel = "OPTS",
            description = "Options of the broker's JVM (default: ${DEFAULT-VALUE}).")
    String brokerJvmOptions;

    @Option(names = "--work-dir", defaultValue = "target/soak", paramLabel = "DIR",
            description = "Where the disk image, the mount point, the broker's configuration and log go "
                    + "(default: ${DEFAULT-VALUE}); the image and the mount are removed at the end.")
    Path workDir;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
            description = "Seed of the corruption positions (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--episodes", defaultValue = "0", paramLabel = "N",
            description = "End after this many episodes instead of after --duration (default: ${DEFAULT-VALUE}: "
                    + "use --duration).")
    int episodes;

    @Option(names = "--client-log-level", defaultValue = "ERROR", paramLabel = "LEVEL",
            description = "Log level of the clients in this process (default: ${DEFAULT-VALUE}: while the broker "
                    + "is down on purpose they would warn many times a second); the broker logs to its own file.")
    String clientLogLevel;

    public static void main(String[] args) {
        System.exit(commandLine(new SoakTool()).execute(args));
    }

    static CommandLine commandLine(SoakTool tool) {
        CommandLine cmd = new CommandLine(tool).setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println("wharf-soak: " + e.getMessage() + " (see: --help)");
            return 2;
        });
        return cmd;
    }

    @Override
    public Integer call() throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(clientLogLevel, Level.ERROR));
        SoakRun.Settings settings = new SoakRun.Settings(seconds("--duration", duration),
                seconds("--episode-every", episodeEvery), positive("--rate", rate), (int) positive("--producers",
                producers), (int) positive("--size", size), (int) positive("--queues", queues),
                (int) positive("--disk-mib", diskMib), fs, (int) positive("--commit-log-mib", commitLogMib),
                flush(flush), (int) positive("--full-seconds", fullSeconds), backlogSeconds, checkCrcOnRead,
                brokerJvmOptions, workDir.toAbsolutePath(), seed, episodes);
        PrintStream out = System.out;
        try {
            SoakRun.Result result = new SoakRun(settings, out).run();
            return result.passed() ? 0 : 1;
        } catch (Exception e) {
            out.println("wharf-soak: the run could not be carried out: " + e);
            e.printStackTrace(out);
            return 2;
        }
    }

    static long seconds(String option, String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new CommandLine.ParameterException(new CommandLine(new SoakTool()), option + " '" + text
                    + "' is not a duration; write e.g. 90s, 30m or 1h.");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "m" -> n * 60;
            case "h" -> n * 3600;
            default -> n;
        };
    }

    private static double positive(String option, double value) {
        if (!(value > 0)) {
            throw new CommandLine.ParameterException(new CommandLine(new SoakTool()), option + " must be above 0, not "
                    + value + ".");
        }
        return value;
    }

    private static String flush(String value) {
        if (!value.equals("async") && !value.equals("sync")) {
            throw new CommandLine.ParameterException(new CommandLine(new SoakTool()), "--flush is async or sync, not '"
                    + value + "'.");
        }
        return value;
    }
}
