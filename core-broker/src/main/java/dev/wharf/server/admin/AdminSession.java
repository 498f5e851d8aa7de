package dev.wharf.server.admin;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.route.NameServerAddresses;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The clients one admin command uses, all on one client instance of its own: the admin client (opened and checked
 * at once, so an unreachable NameServer is reported as such before anything else), and on demand a producer and
 * a pull consumer. Closing shuts them down in reverse order (the consumer commits its offsets). Not thread-safe;
 * one per command run.
 */
final class AdminSession implements AutoCloseable {

    /** Producer group of the messages the command line sends. */
    static final String PRODUCER_GROUP = "wharf-cli";

    private static final AtomicInteger SESSIONS = new AtomicInteger();

    private final String namesrv;
    private final ClientConfig config;
    private final AdminClient admin;
    private final Deque<Runnable> closers = new ArrayDeque<>();
    private ClusterInfo cluster;
    private Producer producer;

    private AdminSession(String namesrv, ClientConfig config, AdminClient admin) {
        this.namesrv = namesrv;
        this.config = config;
        this.admin = admin;
    }

    /**
     * Starts the clients and asks the NameServer for the cluster, so that a wrong address fails here with a
     * sentence that says so.
     *
     * @throws CliException USAGE for a malformed address, UNREACHABLE when no NameServer answers
     */
    static AdminSession open(String namesrv) throws CliException, ClientException, InterruptedException {
        return open(namesrv, config -> { });
    }

    /** What a command's options add to the client configuration (credentials, TLS). */
    @FunctionalInterface
    interface Setup {
        void apply(ClientConfig config) throws CliException;
    }

    /**
     * Like {@link #open(String)}, with credentials and TLS from {@code setup}.
     *
     * @throws CliException USAGE for a malformed address or missing password, UNREACHABLE when no NameServer answers
     */
    static AdminSession open(String namesrv, Setup setup) throws CliException, ClientException,
            InterruptedException {
        try {
            NameServerAddresses.parse(namesrv);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("-n/--namesrv: " + e.getMessage());
        }
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(namesrv);
        // an instance of its own: never shares (or conflicts with) clients of another command in this JVM
        config.setInstanceName("wharf-cli-" + ProcessHandle.current().pid() + "-" + SESSIONS.incrementAndGet());
        config.setClientCallbackExecutorThreads(2);
        setup.apply(config);
        AdminClient admin = new AdminClient(config);
        admin.start();
        AdminSession session = new AdminSession(namesrv, config, admin);
        session.closers.push(admin::shutdown);
        try {
            session.cluster = admin.clusterInfo();
        } catch (ClientException e) {
            session.close();
            if (e.isNoResponse()) {
                throw new CliException(ExitCodes.UNREACHABLE, unreachable(namesrv), e);
            }
            throw e;
        } catch (InterruptedException | RuntimeException e) {
            session.close();
            throw e;
        }
        return session;
    }

    static String unreachable(String namesrv) {
        return (namesrv.contains(";") || namesrv.contains(",") ? "Cannot reach any NameServer of " + namesrv
                : "Cannot reach the NameServer at " + namesrv) + ": is it running? (start one with: wharf namesrv)";
    }

    String namesrv() {
        return namesrv;
    }

    AdminClient admin() {
        return admin;
    }

    /** The cluster as the NameServer described it when the session opened. */
    ClusterInfo cluster() {
        return cluster;
    }

    /** The command line's producer, started on first use. */
    Producer producer() throws ClientException {
        if (producer == null) {
            Producer p = new Producer(PRODUCER_GROUP, config);
            p.start();
            closers.push(p::shutdown);
            producer = p;
        }
        return producer;
    }

    /** A pull consumer of the group, started; closing the session commits the offsets it was given. */
    PullConsumer pullConsumer(String group) throws ClientException {
        PullConsumer consumer = new PullConsumer(group, config);
        consumer.start();
        closers.push(consumer::shutdown);
        return consumer;
    }

    @Override
    public void close() {
        while (!closers.isEmpty()) {
            closers.pop().run();
        }
    }
}
