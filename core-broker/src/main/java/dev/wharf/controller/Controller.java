package dev.wharf.controller;

import dev.wharf.common.util.NamedThreadFactory;
import dev.wharf.controller.elect.BrokerLiveTable;
import dev.wharf.controller.elect.LiveBroker;
import dev.wharf.controller.state.ControllerStateMachine;
import dev.wharf.controller.state.LogCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.remoting.ChannelEventListener;
import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RemotingExecutors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A controller node: a member of the Raft group that holds who is master of each broker name, the request processor
 * brokers and admins talk to, and the leader's scan for dead masters. Runs with a remoting server of its own
 * ({@link #start(NettyServerConfig)}, {@code wharf controller}) or inside a NameServer, on the NameServer's port
 * ({@link #startOn}). Only decides start and stop order; the work is in {@link RaftNode}, {@link ControllerProcessor}
 * and {@link Elections}.
 */
public final class Controller {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final ControllerConfig config;
    private final ControllerStateMachine stateMachine = new ControllerStateMachine();
    private final BrokerLiveTable live = new BrokerLiveTable();
    private final AtomicBoolean addressWriteInFlight = new AtomicBoolean();
    private RaftNode raft;
    private Elections elections;
    private NettyRemotingServer ownServer;
    private ThreadPoolExecutor executor;
    private ThreadPoolExecutor fastExecutor;
    private ScheduledExecutorService scheduler;
    private Supplier<String> address;

    public Controller(ControllerConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * Starts the Raft node and a remoting server of its own.
     *
     * @throws IllegalArgumentException bad peers or self id (the message says which)
     * @throws UncheckedIOException     the data folder or the Raft port cannot be used
     */
    public synchronized void start(NettyServerConfig serverConfig) {
        ownServer = new NettyRemotingServer(serverConfig);
        NettyRemotingServer server = ownServer;
        try {
            startOn(server, server::localAddress);
            server.setChannelEventListener(new ChannelEventListener() {
                @Override
                public void onClose(String remoteAddress, RemotingChannel channel) {
                    onChannelClosed(channel);
                }
            });
            server.start();
        } catch (RuntimeException e) {
            shutdown();
            throw e;
        }
        log.info("Controller {} serving on {} (Raft at {})", raft.selfId(), address(),
                raft.peers().raftAddresses().get(raft.selfId()));
    }

    /**
     * Starts the Raft node and registers the controller's request codes on a server the caller starts (a NameServer's).
     * The caller forwards closed connections to {@link #onChannelClosed}.
     *
     * @param address this node's "host:port" for brokers, asked once the server listens
     */
    public synchronized void startOn(NettyRemotingServer server, Supplier<String> address) {
        ControllerPeers peers = ControllerPeers.parse(config.getControllerPeers());
        this.address = address;
        raft = new RaftNode(config, peers, stateMachine);
        elections = new Elections(raft, stateMachine.state(), live, config, System::currentTimeMillis);
        stateMachine.setLeadershipListener(new ControllerStateMachine.LeadershipListener() {
            // called from inside Ratis: nothing may be thrown back into it
            @Override
            public void onLeaderReady() {
                try {
                    elections.onLeaderReady();
                } catch (RuntimeException e) {
                    log.error("Controller {} could not prepare its leadership", raft.selfId(), e);
                }
            }

            @Override
            public void onLeaderChanged(String newLeaderId) {
                try {
                    if (!raft.selfId().equals(newLeaderId)) {
                        elections.onLeadershipLost(newLeaderId);
                    }
                } catch (RuntimeException e) {
                    log.error("Controller {} could not hand over its leadership", raft.selfId(), e);
                }
            }
        });
        try {
            raft.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start controller " + raft.selfId() + " (data folder "
                    + config.getControllerStorePath() + ", Raft address " + peers.raftAddresses().get(raft.selfId())
                    + "): " + e.getMessage(), e);
        }
        executor = RemotingExecutors.bounded("controller-processor", config.getControllerThreadPoolNums(), 10_000);
        ControllerProcessor processor = new ControllerProcessor(raft, stateMachine.state(), live, elections, config,
                address, System::currentTimeMillis);
        // heartbeats and metadata are answered from memory: they must not queue behind requests that wait for the
        // Raft group (a write or a linearizable read blocks its thread while the group elects), or masters lose their
        // leases exactly when the controller leader changes
        fastExecutor = RemotingExecutors.bounded("controller-heartbeat", 1, 10_000);
        for (int code : ControllerProcessor.codes()) {
            boolean fromMemory = code == RequestCode.CONTROLLER_BROKER_HEARTBEAT
                    || code == RequestCode.CONTROLLER_GET_METADATA_INFO;
            server.registerProcessor(code, processor, fromMemory ? fastExecutor : executor);
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("controller-scan"));
        scheduler.scheduleWithFixedDelay(this::scan, config.getScanNotActiveBrokerInterval(),
                config.getScanNotActiveBrokerInterval(), TimeUnit.MILLISECONDS);
    }

    private void scan() {
        try {
            publishOwnAddress();
            elections.scan();
        } catch (RuntimeException e) {
            log.warn("Controller scan failed: {}", e.toString());
        }
    }

    /** A leader records where it serves, so that followers can send brokers to it. */
    private void publishOwnAddress() {
        if (!raft.isLeaderReady()) {
            return;
        }
        String own;
        try {
            own = address.get();
        } catch (RuntimeException e) {
            return; // the server is not listening yet
        }
        if (own == null || own.equals(stateMachine.state().memberAddresses().get(raft.selfId()))
                || !addressWriteInFlight.compareAndSet(false, true)) {
            return;
        }
        raft.write(new LogCommand.MemberAddress(raft.selfId(), own))
                .whenComplete((r, e) -> addressWriteInFlight.set(false));
    }

    /** A connection closed: the brokers that heartbeated over it count as gone at once (not after their timeout). */
    public void onChannelClosed(RemotingChannel channel) {
        for (LiveBroker b : live.removeChannel(channel)) {
            log.info("Broker {} of {} at {} closed its connection to the controller", b.brokerId(), b.brokerName(),
                    b.address());
        }
    }

    public synchronized void shutdown() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
        if (ownServer != null) {
            ownServer.shutdown();
            ownServer = null;
        }
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
        if (fastExecutor != null) {
            fastExecutor.shutdownNow();
            fastExecutor = null;
        }
        if (raft != null) {
            try {
                raft.close();
            } catch (IOException e) {
                log.warn("Closing controller {} failed: {}", raft.selfId(), e.toString());
            }
            raft = null;
        }
    }

    /** "host:port" where this node serves controller requests. */
    public String address() {
        return address.get();
    }

    public String selfId() {
        return config.getControllerSelfId();
    }

    /** Whether this node is the leader and has applied its first entry of the term. */
    public boolean isLeader() {
        RaftNode r = raft;
        return r != null && r.isLeaderReady();
    }

    /** The replicated state as applied on this node, which may be behind the leader's (for checks and debugging). */
    public java.util.List<dev.wharf.controller.state.GroupRecord> localGroups() {
        return stateMachine.state().groups();
    }

    public ControllerConfig config() {
        return config;
    }
}
