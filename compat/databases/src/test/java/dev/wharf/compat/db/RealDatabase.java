package dev.wharf.compat.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A real database server started by a test class, once, from binaries shipped as a Maven artifact. */
public final class RealDatabase implements AutoCloseable {

    /** The databases the tests run against. */
    public enum Kind { POSTGRESQL, MARIADB }

    private final Kind kind;
    private final Path dir;
    private final AutoCloseable server;
    private final String jdbcUrl;
    private final String user;

    private RealDatabase(Kind kind, Path dir, AutoCloseable server, String jdbcUrl, String user) {
        this.kind = kind;
        this.dir = dir;
        this.server = server;
        this.jdbcUrl = jdbcUrl;
        this.user = user;
    }

    /**
     * Starts a server with its files in a fresh folder under the build's {@code target} (PostgreSQL runs as an
     * unprivileged user when the tests run as root, and that user must be able to reach its folder).
     */
    public static RealDatabase start(Kind kind) throws Exception {
        Path dir = Path.of("target", "databases", kind.name().toLowerCase() + "-" + System.nanoTime())
                .toAbsolutePath();
        Files.createDirectories(dir);
        if (kind == Kind.POSTGRESQL) {
            PostgresServer pg = PostgresServer.start(dir);
            return new RealDatabase(kind, dir, pg, pg.jdbcUrl(), pg.user());
        }
        MariaDbServer maria = MariaDbServer.start(dir);
        return new RealDatabase(kind, dir, maria, maria.jdbcUrl(), maria.user());
    }

    public Kind kind() {
        return kind;
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    public String user() {
        return user;
    }

    /** Stops the server and deletes its files. */
    @Override
    public void close() throws Exception {
        try {
            server.close();
        } finally {
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
