package dev.wharf.benchmarks.sbs;

import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * An embedded ActiveMQ Artemis with its NIO journal, reached over a loopback TCP acceptor (as a Wharf {@code vm://}
 * broker is reached over its loopback port). {@code artemis-tuned} forces the journal (fdatasync) and gathers writes
 * for at most 250 µs before each force; {@code artemis-nosync} never forces; {@code artemis} keeps Artemis's
 * defaults (forced, about 3.3 ms of gathering).
 */
final class ArtemisProvider implements Provider {

    private final String name;
    private final boolean sync;
    private final int bufferTimeoutNanos;
    private EmbeddedActiveMQ broker;

    private ArtemisProvider(String name, boolean sync, int bufferTimeoutNanos) {
        this.name = name;
        this.sync = sync;
        this.bufferTimeoutNanos = bufferTimeoutNanos;
    }

    /** The Artemis configuration of a provider name, or null when the name is not one of them. */
    static Provider named(String name) {
        return switch (name) {
            case "artemis" -> new ArtemisProvider(name, true, 3_333_333);
            case "artemis-tuned" -> new ArtemisProvider(name, true, 250_000);
            case "artemis-nosync" -> new ArtemisProvider(name, false, 3_333_333);
            default -> null;
        };
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ConnectionFactory start(Path dir) throws Exception {
        Configuration cfg = new ConfigurationImpl();
        cfg.setPersistenceEnabled(true);
        cfg.setSecurityEnabled(false);
        cfg.setJMXManagementEnabled(false);
        cfg.setJournalType(JournalType.NIO);
        cfg.setJournalDirectory(dir.resolve("journal").toString());
        cfg.setBindingsDirectory(dir.resolve("bindings").toString());
        cfg.setPagingDirectory(dir.resolve("paging").toString());
        cfg.setLargeMessagesDirectory(dir.resolve("large").toString());
        cfg.setJournalSyncNonTransactional(sync);
        cfg.setJournalSyncTransactional(sync);
        cfg.setJournalBufferTimeout_NIO(bufferTimeoutNanos);
        String url = "tcp://127.0.0.1:" + freePort();
        cfg.addAcceptorConfiguration("tcp", url);
        EmbeddedActiveMQ b = new EmbeddedActiveMQ();
        b.setConfiguration(cfg);
        b.start();
        broker = b;
        return new ActiveMQConnectionFactory(url);
    }

    /** A loopback port free a moment ago; Artemis's acceptor reports no port of its own when given 0. */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void stop() throws Exception {
        if (broker != null) {
            broker.stop();
            broker = null;
        }
    }
}
