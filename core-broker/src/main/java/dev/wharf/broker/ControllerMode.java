package dev.wharf.broker;

import dev.wharf.broker.ack.AckService;
import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.broker.ha.BrokerRole;
import dev.wharf.broker.ha.ControllerModeConfig;
import dev.wharf.broker.ha.ControllerReplicas;
import dev.wharf.broker.ha.HaService;
import dev.wharf.broker.registry.NameServerRegistrar;
import dev.wharf.broker.schedule.ScheduleService;
import dev.wharf.broker.transaction.TransactionSupport;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.store.ReplicableStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker in controller mode ({@code enableControllerMode=true}): the replica starts fenced, as a slave with no
 * master, and takes the role the controllers give it. Once listening it joins the controllers through
 * {@link ControllerReplicas} (retrying until a controller leader answers), keeps the id the controllers gave it in
 * the store folder, and only then registers with the NameServers, under brokerId 0 while it is master and under its
 * controller id while it is a slave. On every role change it re-registers at once (routes follow the new master
 * within a registration round trip), points the metadata sync at the new master, and starts or stops the services
 * that write on their own (scheduled delivery, transaction check-back; the acknowledgement service starts with the
 * first election and then stays, its writes refused by the slave's put gate).
 *
 * <p>Thread-safe: role changes arrive on the controller client's role thread, start and shutdown on the broker's.
 */
final class ControllerMode {

    private static final Logger log = LoggerFactory.getLogger(ControllerMode.class);
    /** The id the controllers assigned, kept beside the commit log so a restart claims it again. */
    static final String ID_FILE = "controllerBrokerId";
    private static final long JOIN_RETRY_MILLIS = 1_000;

    private final BrokerSettings settings;
    private final BrokerConfig config;
    private final ControllerModeConfig controllerConfig;
    private final BrokerRole electedRole;
    private final long configuredId;
    private final ScheduledExecutorService joiner;
    private HaService ha;
    private ReplicableStore store;
    private BrokerReplica replica;
    private ScheduleService schedule;
    private TransactionSupport transactions;
    private AckService ack;
    private Supplier<NameServerRegistrar> registrar;
    private Runnable startRegistration;
    private volatile UnaryOperator<NettyRemotingClient> clientSetup = UnaryOperator.identity();
    private volatile ControllerReplicas link;
    private volatile boolean stopped;
    // guarded by this
    private boolean roleTaken;
    private boolean scheduleRunning;
    private boolean checkBackRunning;
    private boolean ackStarted;

    /**
     * Prepares the settings for a fenced start (call before the replication service is built): replication
     * starts as a slave with no master, and the broker is wired as a master (pop, ack and offset processors) so
     * that an election needs no new processors; the put gate refuses writes until then.
     */
    ControllerMode(BrokerSettings settings) {
        this.settings = settings;
        this.config = settings.broker();
        this.controllerConfig = settings.controller();
        this.electedRole = settings.ha().getBrokerRole();
        this.configuredId = config.getBrokerId();
        settings.ha().setBrokerRole(BrokerRole.SLAVE);
        settings.ha().setHaMasterAddress(null);
        config.setBrokerId(0);
        this.joiner = Executors.newSingleThreadScheduledExecutor(RemotingExecutors.threadFactory(
                "wharf-controller-join"));
    }

    /** The id replication uses until the controllers tell the real one (a slave's id must be above 0). */
    long provisionalReplicaId() {
        long known = knownId();
        return known > 0 ? known : 1;
    }

    /** The parts a role change acts on; called once, at the end of the broker's construction. */
    void wire(HaService ha, ReplicableStore store, BrokerReplica replica, ScheduleService schedule,
              TransactionSupport transactions, AckService ack, Supplier<NameServerRegistrar> registrar,
              Runnable startRegistration) {
        this.ha = ha;
        this.store = store;
        this.replica = replica;
        this.schedule = schedule;
        this.transactions = transactions;
        this.ack = ack;
        this.registrar = registrar;
        this.startRegistration = startRegistration;
    }

    /** The broker's inner-client credentials and TLS, applied to its controller client (before {@link #start}). */
    void setClientSetup(UnaryOperator<NettyRemotingClient> setup) {
        this.clientSetup = setup;
    }

    /** Joins the controllers from {@code address} (the broker listens there now), in the background until it works. */
    void start(String address) {
        joiner.execute(() -> join(address));
    }

    private void join(String address) {
        if (stopped) {
            return;
        }
        long id = knownId();
        ControllerReplicas r = new ControllerReplicas(controllerConfig, controllerConfig.getMasterLeaseMillis(),
                config.getBrokerClusterName(), config.getBrokerName(), address, id, ha, store, electedRole,
                this::haAddressOf);
        r.onRoleTaken(this::roleTaken);
        r.onLeaseRenewed(() -> {
            // a master registers as id 0 only while it holds its lease: one elected (or one whose lease lapsed)
            // while a registration ran registered as a slave, and must not wait for the next period to be routed
            NameServerRegistrar reg = registrar.get();
            if (reg != null) {
                reg.requestRegistration();
            }
        });
        r.client().setClientSetup(clientSetup);
        try {
            r.start();
        } catch (ControllerException | RuntimeException e) {
            r.close();
            log.warn("Broker {} could not join the controllers at {}: {}; it stays fenced and tries again in {} ms",
                    config.getBrokerName(), controllerConfig.getControllerAddr(), e.getMessage(), JOIN_RETRY_MILLIS);
            retry(address);
            return;
        } catch (InterruptedException e) {
            r.close();
            Thread.currentThread().interrupt();
            return;
        }
        synchronized (this) {
            if (stopped) {
                r.close();
                return;
            }
            link = r;
        }
        long assigned = r.client().brokerId();
        if (configuredId <= 0 && assigned != id) {
            keepId(assigned);
        }
        log.info("Broker {} joined the controllers as replica {} ({} when elected)", config.getBrokerName(), assigned,
                electedRole);
        synchronized (this) {
            if (stopped) {
                return;
            }
            if (!roleTaken) {
                config.setBrokerId(assigned); // a slave until the controllers say otherwise
            }
            try {
                startRegistration.run();
            } catch (RuntimeException e) {
                log.error("Broker {} could not start its NameServer registration", config.getBrokerName(), e);
            }
        }
    }

    private void retry(String address) {
        try {
            joiner.schedule(() -> join(address), JOIN_RETRY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down
        }
    }

    /** The id at the controllers: configured, else kept from an earlier start, else 0 (to be assigned). */
    private long knownId() {
        if (configuredId > 0) {
            return configuredId;
        }
        Path file = idFile();
        if (!Files.exists(file)) {
            return 0;
        }
        try {
            return Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).trim());
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("The controller id file " + file + " is unreadable (" + e.getMessage()
                    + "); write this replica's id into it (see admin broker-groups) or set brokerId", e);
        }
    }

    private void keepId(long id) {
        Path file = idFile();
        Path tmp = file.resolveSibling(ID_FILE + ".tmp");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(tmp, Long.toString(id), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            log.error("Could not keep the controller id {} in {}: {}; set brokerId={} so a restart claims it",
                    id, file, e.getMessage(), id);
        }
    }

    private Path idFile() {
        return settings.store().rootPath().resolve(ID_FILE);
    }

    /** The HA address of the master at {@code brokerAddress}, as the NameServers tell it; null until they do. */
    private String haAddressOf(String brokerAddress) {
        NameServerRegistrar r = registrar.get();
        if (r == null) {
            return null;
        }
        NameServerRegistrar.MasterInfo m = r.master();
        if (m != null && brokerAddress.equals(m.masterAddr()) && m.haServerAddr() != null) {
            return m.haServerAddr();
        }
        r.requestRegistration(); // its answer names the group's master once the master registered
        return null;
    }

    private void roleTaken(boolean master, long brokerId, String masterAddress, int epoch) {
        synchronized (this) {
            if (stopped) {
                return;
            }
            roleTaken = true;
            config.setBrokerId(master ? 0 : brokerId);
            replica.setMasterAddress(master ? null : masterAddress);
            replica.setReplication(ha.role().name(), ha.role() == BrokerRole.SYNC_MASTER
                    ? settings.ha().requiredSlaveAcks() : 0, ha::inSyncReplicaCount);
        }
        NameServerRegistrar r = registrar.get();
        if (r != null) {
            r.requestRegistration(); // routes follow at once, not at the next registration period
        }
        if (master) {
            startMasterServices();
        } else {
            stopMasterServices();
        }
        log.info("Broker {} registered its new role with the NameServers: {} at epoch {}", config.getBrokerName(),
                master ? "master" : "slave " + brokerId + " of " + masterAddress, epoch);
    }

    private synchronized void startMasterServices() {
        if (stopped) {
            return;
        }
        try {
            if (!ackStarted) {
                ack.start();
                ackStarted = true;
            }
            if (!scheduleRunning) {
                schedule.start();
                scheduleRunning = true;
            }
            if (!checkBackRunning) {
                transactions.startCheckBack();
                checkBackRunning = true;
            }
        } catch (IOException | RuntimeException e) {
            log.error("Broker {} is master but could not start its master services (scheduled delivery, transaction"
                    + " check-back, acknowledgements); messages still flow", config.getBrokerName(), e);
        }
    }

    private synchronized void stopMasterServices() {
        if (scheduleRunning) {
            schedule.shutdown();
            scheduleRunning = false;
        }
        if (checkBackRunning) {
            transactions.stopCheckBack();
            checkBackRunning = false;
        }
    }

    /**
     * The brokerId to register with the NameServers: 0 only while this replica is a master holding its lease, so a
     * deposed master that wakes up (paused, cut off) never takes the master's place in the routes back.
     */
    long registrationId() {
        ControllerReplicas l = link;
        if (l == null) {
            return config.getBrokerId();
        }
        return l.writableMaster() ? 0 : l.client().brokerId();
    }

    /**
     * The master epoch to register with: the epoch of the group's master as the controllers last told this
     * replica (the NameServer lets a registration as id 0 with a higher epoch replace a live old master); null
     * before it joined.
     */
    Integer registrationEpoch() {
        ControllerReplicas l = link;
        return l == null ? null : l.client().masterEpoch();
    }

    /** This replica's link to the controllers, or null before it joined. */
    ControllerReplicas link() {
        return link;
    }

    /** Leaves the controllers (they elect another master at once) and stops the master services. */
    void shutdown() {
        ControllerReplicas l;
        synchronized (this) {
            stopped = true;
            l = link;
        }
        joiner.shutdownNow();
        if (l != null) {
            l.close();
        }
        synchronized (this) {
            stopMasterServices();
            if (ackStarted) {
                ack.shutdown();
                ackStarted = false;
            }
        }
    }
}
