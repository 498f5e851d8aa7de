package dev.wharf.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.server.Cli;
import dev.wharf.server.ForegroundRun;
import dev.wharf.server.TestStores;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A standalone server (started through the command line) that admin commands run against. */
final class AdminServer implements AutoCloseable {

    private static final Pattern ID = Pattern.compile("\\b[0-9A-F]{32}\\b");

    private final ForegroundRun server;

    AdminServer(Path dir) throws IOException {
        server = ForegroundRun.start("standalone", "--port", "0", "--broker-port", "0",
                "--store", dir.resolve("store").toString(), "--config", TestStores.smallConfig(dir).toString());
        assertThat(server.readyLine()).as(server.describe()).isNotEmpty();
    }

    String namesrv() {
        return server.nameServerAddress();
    }

    String brokerAddress() {
        return server.brokerAddress();
    }

    /** Runs {@code wharf admin -n <this server> args...}. */
    Cli.Result admin(String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "admin";
        full[1] = "-n";
        full[2] = namesrv();
        System.arraycopy(args, 0, full, 3, args.length);
        return Cli.run(full);
    }

    /** Runs an admin command that must succeed. */
    Cli.Result ok(String... args) {
        Cli.Result r = admin(args);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    /** The 32-hex ids in a line, in order. */
    static List<String> ids(String line) {
        List<String> out = new ArrayList<>();
        Matcher m = ID.matcher(line);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** The data lines of a table (without its header). */
    static List<String> rows(String tableText) {
        return tableText.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    @Override
    public void close() {
        server.close();
    }
}
