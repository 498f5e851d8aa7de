package dev.wharf.spring.boot.actuate;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A client of its own for health and metrics, apart from the application's connections: asks the NameServer which
 * brokers are registered and a broker how far a queue's consumers are. Connects on first use. Thread-safe.
 */
public final class WharfBrokerClient implements AutoCloseable {

    private static final int API_TIMEOUT_MILLIS = 3_000;

    private final Supplier<String> namesrvAddr;
    private ClientConfig config;
    private AdminClient admin;
    private boolean closed;

    /** @param namesrvAddr the NameServer addresses, asked on first use (the broker may start after this bean) */
    public WharfBrokerClient(Supplier<String> namesrvAddr) {
        this.namesrvAddr = namesrvAddr;
    }

    /** The brokers registered with the NameServer. */
    public ClusterInfo clusterInfo() throws ClientException, InterruptedException {
        return admin().clusterInfo();
    }

    /**
     * The acknowledgement state of a JMS queue's consumers (its group has the queue's name), per broker.
     *
     * @throws ClientException when the queue has no route yet or no broker answers
     */
    public Map<String, AckStats> queueStats(String queue) throws ClientException, InterruptedException {
        ClientConfig c;
        synchronized (this) {
            admin();
            c = config;
        }
        AckConsumer reader = new AckConsumer(queue, c);
        reader.start();
        try {
            return reader.stats(queue);
        } finally {
            reader.shutdown();
        }
    }

    private synchronized AdminClient admin() throws ClientException {
        if (closed) {
            throw new ClientException("The Wharf actuator client is closed (the application is stopping).");
        }
        if (admin == null) {
            ClientConfig c = new ClientConfig();
            c.setNamesrvAddr(namesrvAddr.get());
            c.setInstanceName("wharf-actuator-" + ProcessHandle.current().pid() + "-" + System.identityHashCode(this));
            c.setMqClientApiTimeout(API_TIMEOUT_MILLIS);
            c.setClientCallbackExecutorThreads(1);
            AdminClient a = new AdminClient(c);
            a.start();
            config = c;
            admin = a;
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (admin != null) {
            admin.shutdown();
            admin = null;
        }
    }
}
