package dev.wharf.controller.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.ControllerHeaders.NotLeaderHeader;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.NettyRemotingServer;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The leader search against three scripted controller nodes on real sockets: a leader that falls silent (a paused
 * process: the connection stays open, no answer comes) costs one attempt, not the whole request, and followers that
 * still name it (they have not elected yet) do not send the client back to it.
 */
@Timeout(60)
class ControllerInvokerTest {

    private static final long ATTEMPT_MILLIS = 400;
    private static final long TIMER_SLACK_MILLIS = 10;

    /** How a scripted node answers a heartbeat. */
    private enum Role { LEADER, FOLLOWER, SILENT }

    private final FakeNode a = new FakeNode();
    private final FakeNode b = new FakeNode();
    private final FakeNode c = new FakeNode();
    private NettyRemotingClient remoting;
    private ControllerInvoker invoker;

    @BeforeEach
    void start() {
        a.start();
        b.start();
        c.start();
        remoting = new NettyRemotingClient(new NettyClientConfig());
        remoting.start();
        invoker = new ControllerInvoker(remoting, List.of(a.address(), b.address(), c.address()), 5_000);
    }

    @AfterEach
    void stop() {
        if (remoting != null) {
            remoting.shutdown();
        }
        a.stop();
        b.stop();
        c.stop();
    }

    @Test
    void aSilentLeaderCostsOneAttemptAndStaleRedirectsToItAreNotFollowed() throws Exception {
        a.act(Role.LEADER, null);
        b.act(Role.FOLLOWER, a);
        c.act(Role.FOLLOWER, a);
        assertThat(beat().response().remark()).isEqualTo(a.address());
        assertThat(invoker.leader()).isEqualTo(a.address());

        // the leader is paused; b has won the election, c still names a
        a.act(Role.SILENT, null);
        b.act(Role.LEADER, null);
        long before = System.nanoTime();
        ControllerInvoker.LeaderAnswer answer = beat();
        assertThat(answer.response().code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(answer.response().remark()).isEqualTo(b.address());
        // the answered attempt is the one after a's timed-out attempt: a lease counts from it, not from the first
        // (less the timer's rounding: an attempt's timeout can end a few microseconds short of this test's clock)
        assertThat(answer.sentAtNanos() - before)
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(ATTEMPT_MILLIS - TIMER_SLACK_MILLIS));

        // leadership moves on to c while b now names the silent a: the client goes to c without asking a again
        b.act(Role.FOLLOWER, a);
        c.act(Role.LEADER, null);
        int askedA = a.requests.get();
        ControllerInvoker.LeaderAnswer third = beat();
        assertThat(third.response().remark()).isEqualTo(c.address());
        assertThat(a.requests.get()).isEqualTo(askedA);
        assertThat(invoker.leader()).isEqualTo(c.address());
    }

    @Test
    void aNodeThatFailedIsAskedAgainWhenNobodyElseLeads() throws Exception {
        // a lone leader restarting: refused connections until it listens again; the request must not give up on it
        a.act(Role.FOLLOWER, null);
        b.act(Role.FOLLOWER, null);
        c.act(Role.SILENT, null);
        ExecutorService later = Executors.newSingleThreadExecutor();
        try {
            var pending = later.submit(this::beat);
            // c has failed once (suspect) when it starts to lead; the others still know no leader
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> c.requests.get() >= 1);
            c.act(Role.LEADER, null);
            assertThat(pending.get(10, TimeUnit.SECONDS).response().remark()).isEqualTo(c.address());
        } finally {
            later.shutdownNow();
        }
    }

    private ControllerInvoker.LeaderAnswer beat() throws Exception {
        return invoker.invokeLeader(() -> RemotingCommand.createRequest(RequestCode.CONTROLLER_BROKER_HEARTBEAT),
                ATTEMPT_MILLIS);
    }

    /** A remoting server answering heartbeats as its current role says; the leader answers with its own address. */
    private static final class FakeNode {
        final AtomicInteger requests = new AtomicInteger();
        private volatile Role role = Role.FOLLOWER;
        private volatile FakeNode named;
        private NettyRemotingServer server;
        private ExecutorService executor;

        void start() {
            NettyServerConfig config = new NettyServerConfig();
            config.setListenPort(0);
            config.setSelectorThreads(1);
            server = new NettyRemotingServer(config);
            executor = Executors.newFixedThreadPool(2);
            server.registerProcessor(RequestCode.CONTROLLER_BROKER_HEARTBEAT, (channel, request) -> {
                requests.incrementAndGet();
                return switch (role) {
                    case SILENT -> null;
                    case LEADER -> request.newResponse(ResponseCode.SUCCESS, address());
                    case FOLLOWER -> request.newResponse(ResponseCode.CONTROLLER_NOT_LEADER, "not the leader")
                            .writeHeader(named == null ? new NotLeaderHeader(null, null)
                                    : new NotLeaderHeader("x", named.address()));
                };
            }, executor);
            server.start();
        }

        void act(Role role, FakeNode leaderNamed) {
            this.named = leaderNamed;
            this.role = role;
        }

        String address() {
            return server.localAddress();
        }

        void stop() {
            if (server != null) {
                server.shutdown();
            }
            if (executor != null) {
                executor.shutdownNow();
            }
        }
    }
}
