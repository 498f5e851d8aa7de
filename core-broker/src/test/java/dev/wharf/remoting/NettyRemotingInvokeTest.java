package dev.wharf.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingFrameDescriptor;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.exception.RemotingConnectException;
import dev.wharf.remoting.exception.RemotingTimeoutException;
import dev.wharf.remoting.exception.RemotingTooMuchRequestException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Server and client over loopback: the invocation styles, timeouts, both directions, concurrency. */
class NettyRemotingInvokeTest {

    private static final int ECHO = 9001;
    private static final int SILENT = 9002;
    private static final int ASK_CLIENT = 9003;
    private static final int RECORD = 9004;
    /** A code of Wharf's own range, beyond the 16 bits of RocketMQ's binary header. */
    private static final int SILENT_WIDE = 200_999;

    private final ExecutorService serverExecutor = RemotingExecutors.bounded("test-server", 8, 10_000);
    private final ExecutorService clientExecutor = RemotingExecutors.bounded("test-client", 2, 100);
    private final ConcurrentLinkedQueue<RemotingCommand> silentRequests = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<RemotingChannel> silentChannels = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> recorded = new ConcurrentLinkedQueue<>();
    private NettyRemotingServer server;
    private NettyRemotingClient client;
    private String address;

    private void start(boolean useEpoll) {
        start(useEpoll, new NettyClientConfig().getSyncSpinMicros());
    }

    private void start(boolean useEpoll, int syncSpinMicros) {
        start(useEpoll, syncSpinMicros, new NettyClientConfig().getSerializeType());
    }

    private void start(boolean useEpoll, int syncSpinMicros, String serializeType) {
        NettyServerConfig serverConfig = new NettyServerConfig();
        serverConfig.setListenPort(0);
        serverConfig.setUseEpoll(useEpoll);
        server = new NettyRemotingServer(serverConfig);
        server.registerProcessor(ECHO, (channel, request) -> {
            RemotingCommand response = RemotingCommand.createResponse(ResponseCode.SUCCESS, request.ext("say"));
            response.putExt("from", channel.remoteAddress());
            return response.setBody(request.body());
        }, serverExecutor);
        server.registerProcessor(SILENT, (channel, request) -> {
            silentRequests.add(request);
            silentChannels.add(channel);
            return null;
        }, serverExecutor);
        server.registerProcessor(SILENT_WIDE, (channel, request) -> {
            silentRequests.add(request);
            return null;
        }, serverExecutor);
        server.registerProcessor(ASK_CLIENT, (channel, request) -> {
            RemotingCommand check = RemotingCommand.createRequest(RequestCode.CHECK_TRANSACTION_STATE)
                    .putExt("msgId", request.requireExt("msgId"));
            RemotingCommand answer = channel.invokeSync(check, 3000);
            return RemotingCommand.createResponse(ResponseCode.SUCCESS, "client said " + answer.remark());
        }, serverExecutor);
        server.registerProcessor(RECORD, (channel, request) -> {
            recorded.add(request.requireExt("n"));
            return RemotingCommand.createResponse(ResponseCode.SUCCESS, null);
        }, serverExecutor);
        server.start();
        address = "127.0.0.1:" + server.localPort();

        NettyClientConfig clientConfig = new NettyClientConfig();
        clientConfig.setUseEpoll(useEpoll);
        clientConfig.setSyncSpinMicros(syncSpinMicros);
        clientConfig.setSerializeType(serializeType);
        client = new NettyRemotingClient(clientConfig);
        client.registerProcessor(RequestCode.CHECK_TRANSACTION_STATE, (channel, request) ->
                RemotingCommand.createResponse(ResponseCode.TRANSACTION_SHOULD_COMMIT, "commit " + request.ext("msgId")),
                clientExecutor);
        client.start();
    }

    @BeforeEach
    void startDefault() {
        start(true);
    }

    private void stopEndpoints() {
        client.shutdown();
        server.shutdown();
    }

    @AfterEach
    void stop() {
        stopEndpoints();
        serverExecutor.shutdownNow();
        clientExecutor.shutdownNow();
    }

    private static RemotingCommand echo(String say) {
        return RemotingCommand.createRequest(ECHO).putExt("say", say).setBody(say.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void syncCallsWorkOnEpollAndNio(boolean useEpoll) throws Exception {
        stopEndpoints();
        start(useEpoll);
        RemotingCommand request = echo("hello");

        RemotingCommand response = client.invokeSync(address, request, 3000);

        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(response.opaque()).isEqualTo(request.opaque());
        assertThat(response.remark()).isEqualTo("hello");
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(response.ext("from")).startsWith("127.0.0.1:");
    }

    /** The client's header encoding is what its requests carry, and the server answers in it. */
    @ParameterizedTest
    @ValueSource(strings = {"ROCKETMQ", "JSON", "json"})
    void requestsGoInTheClientsHeaderEncodingAndAreAnsweredInIt(String serializeType) throws Exception {
        stopEndpoints();
        start(true, 0, serializeType);
        int expected = serializeType.equals("ROCKETMQ") ? RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ
                : RemotingFrameDescriptor.SERIALIZE_TYPE_JSON;
        RemotingCommand request = RemotingCommand.createRequest(SILENT).putExt("k", "v\u00e9");

        client.invokeOneway(address, request, 3000);
        await().atMost(Duration.ofSeconds(5)).until(() -> !silentRequests.isEmpty());
        RemotingCommand received = silentRequests.poll();
        RemotingCommand response = client.invokeSync(address, echo("in kind"), 3000);

        assertThat(received.serializeType()).isEqualTo(expected);
        assertThat(received.ext("k")).isEqualTo("v\u00e9");
        assertThat(response.serializeType()).isEqualTo(expected);
        assertThat(response.remark()).isEqualTo("in kind");

        // a code the binary header's 16 bits cannot carry goes in JSON whatever the setting
        client.invokeOneway(address, RemotingCommand.createRequest(SILENT_WIDE).putExt("k", "wide"), 3000);
        await().atMost(Duration.ofSeconds(5)).until(() -> !silentRequests.isEmpty());
        RemotingCommand wide = silentRequests.poll();
        assertThat(wide.code()).isEqualTo(SILENT_WIDE);
        assertThat(wide.ext("k")).isEqualTo("wide");
        assertThat(wide.serializeType()).isEqualTo(RemotingFrameDescriptor.SERIALIZE_TYPE_JSON);
    }

    @Test
    void theDefaultHeaderEncodingIsBinaryAndABadOneIsRefusedByName() {
        assertThat(new NettyClientConfig().getSerializeType()).isEqualTo("ROCKETMQ");
        assertThat(NettyClientConfig.serializeTypeCode("p", " json "))
                .isEqualTo(RemotingFrameDescriptor.SERIALIZE_TYPE_JSON);
        assertThat(NettyClientConfig.defaultSerializeType(null))
                .isEqualTo(RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ);
        assertThatThrownBy(() -> NettyClientConfig.defaultSerializeType("binary"))
                .hasMessage("rocketmq.serialize.type is 'binary', but must be ROCKETMQ (binary headers) or JSON");
        assertThatThrownBy(() -> new NettyClientConfig().setSerializeType(null))
                .hasMessage("serializeType is not set, but must be ROCKETMQ (binary headers) or JSON");
    }

    /** Whether a lone caller spins for its answer changes when it sees it, never what it sees or its timeout. */
    @ParameterizedTest
    @ValueSource(ints = {0, 100_000})
    void syncCallsGetTheirAnswersAndTimeOutWhetherTheCallerSpinsOrParks(int syncSpinMicros) throws Exception {
        stopEndpoints();
        start(true, syncSpinMicros);
        for (int i = 0; i < 200; i++) {
            RemotingCommand request = echo("n" + i);
            RemotingCommand response = client.invokeSync(address, request, 3000);
            assertThat(response.opaque()).isEqualTo(request.opaque());
            assertThat(response.remark()).isEqualTo("n" + i);
        }
        // a budget of 100 ms spins past a 50 ms timeout only until the timer fails the call
        assertThatThrownBy(() -> client.invokeSync(address, RemotingCommand.createRequest(SILENT), 50))
                .isInstanceOf(RemotingTimeoutException.class);
        assertThat(client.invokeSync(address, echo("after"), 3000).remark()).isEqualTo("after");
    }

    @Test
    void asyncCallsCompleteOffTheIoThreads() throws Exception {
        AtomicReference<String> thread = new AtomicReference<>();
        CompletableFuture<RemotingCommand> future = client.invokeAsync(address, echo("async"), 3000)
                .whenComplete((r, e) -> thread.set(Thread.currentThread().getName()));

        assertThat(future.get(5, TimeUnit.SECONDS).remark()).isEqualTo("async");
        await().atMost(Duration.ofSeconds(5)).until(() -> thread.get() != null);
        assertThat(thread.get()).doesNotContain("-io-");

        // A second call takes the connected fast path.
        assertThat(client.invokeAsync(address, echo("again"), 3000).get(5, TimeUnit.SECONDS).remark())
                .isEqualTo("again");
    }

    /** A timer wheel is a thread ticking a hundred times a second: the JVM's endpoints share one. */
    @Test
    void everyEndpointSharesOneTimerThreadAndTheLastToStopEndsIt() throws Exception {
        int before = SharedTimer.users();
        List<NettyRemotingClient> more = new ArrayList<>();
        try {
            List<CompletableFuture<RemotingCommand>> waiting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                NettyRemotingClient c = new NettyRemotingClient(new NettyClientConfig());
                more.add(c);
                c.start();
                waiting.add(c.invokeAsync(address, RemotingCommand.createRequest(SILENT), 300));
            }
            assertThat(SharedTimer.users()).isEqualTo(before + 3);
            assertThat(timerThreads()).hasSize(1);
            for (CompletableFuture<RemotingCommand> w : waiting) {
                // the shared wheel expires each client's request
                assertThatThrownBy(() -> w.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(RemotingTimeoutException.class);
            }
        } finally {
            more.forEach(NettyRemotingClient::shutdown);
        }
        assertThat(SharedTimer.users()).isEqualTo(before);
        stopEndpoints();
        assertThat(SharedTimer.users()).isEqualTo(before - 2);
        if (SharedTimer.users() == 0) { // no endpoint of another test is still open: the wheel's thread is gone
            assertThat(timerThreads()).isEmpty();
        }
        start(true);
    }

    private static List<Thread> timerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("wharf-remoting-timer") && t.isAlive())
                .toList();
    }

    @Test
    void onewayCallsReachTheProcessorWithoutAResponse() throws Exception {
        for (int i = 0; i < 10; i++) {
            client.invokeOneway(address, RemotingCommand.createRequest(SILENT).putExt("n", i), 3000);
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> silentRequests.size() == 10);
        assertThat(silentRequests).allMatch(RemotingCommand::isOneway);
    }

    @Test
    void aSyncCallTimesOutAndTheLateResponseIsDropped() throws Exception {
        RemotingCommand request = RemotingCommand.createRequest(SILENT);
        long start = System.nanoTime();

        assertThatThrownBy(() -> client.invokeSync(address, request, 300))
                .isInstanceOfSatisfying(RemotingTimeoutException.class, e -> {
                    assertThat(e.getMessage()).contains("UNKNOWN(9002)").contains(address).contains("300 ms");
                    assertThat(e.timeoutMillis()).isEqualTo(300);
                });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));

        // The processor answers late through its channel; the client drops it and keeps working.
        await().atMost(Duration.ofSeconds(5)).until(() -> !silentChannels.isEmpty());
        silentChannels.peek().writeResponse(silentRequests.peek().newResponse(ResponseCode.SUCCESS, "late"));
        assertThat(client.invokeSync(address, echo("after"), 3000).remark()).isEqualTo("after");
    }

    @Test
    void anAsyncCallTimesOutAndALateAnswerViaWriteResponseStillWorksWhenInTime() throws Exception {
        CompletableFuture<RemotingCommand> timedOut = client.invokeAsync(address, RemotingCommand.createRequest(SILENT), 200);
        assertThatThrownBy(() -> timedOut.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(RemotingTimeoutException.class);

        // Long-polling style: no response from process(), one written later from another thread.
        CompletableFuture<RemotingCommand> answered =
                client.invokeAsync(address, RemotingCommand.createRequest(SILENT), 5000);
        await().atMost(Duration.ofSeconds(5)).until(() -> silentRequests.size() == 2);
        RemotingCommand held = silentRequests.stream().skip(1).findFirst().orElseThrow();
        new ArrayList<>(silentChannels).get(1).writeResponse(held.newResponse(ResponseCode.NO_MESSAGE, "polled"));
        assertThat(answered.get(5, TimeUnit.SECONDS).remark()).isEqualTo("polled");
    }

    @Test
    void theServerCallsAProcessorOnTheClientOverTheSameConnection() throws Exception {
        AtomicInteger serverConnections = new AtomicInteger();
        server.setChannelEventListener(new ChannelEventListener() {
            @Override
            public void onConnect(String remoteAddress, RemotingChannel channel) {
                serverConnections.incrementAndGet();
            }
        });

        RemotingCommand response = client.invokeSync(address, RemotingCommand.createRequest(ASK_CLIENT)
                .putExt("msgId", "M1"), 5000);

        assertThat(response.remark()).isEqualTo("client said commit M1");
        assertThat(serverConnections).hasValue(1);
    }

    @Test
    void theServerCanCallTheClientAsynchronouslyFromTheChannelItWasGiven() throws Exception {
        client.invokeOneway(address, RemotingCommand.createRequest(SILENT), 3000);
        await().atMost(Duration.ofSeconds(5)).until(() -> !silentChannels.isEmpty());
        RemotingChannel toClient = silentChannels.peek();

        RemotingCommand answer = toClient.invokeAsync(RemotingCommand.createRequest(RequestCode.CHECK_TRANSACTION_STATE)
                .putExt("msgId", "M2"), 3000).get(5, TimeUnit.SECONDS);

        assertThat(answer.code()).isEqualTo(ResponseCode.TRANSACTION_SHOULD_COMMIT);
        assertThat(answer.remark()).isEqualTo("commit M2");
        assertThat(toClient.isActive()).isTrue();
        assertThat(toClient.remoteAddress()).startsWith("127.0.0.1:");
    }

    @Test
    void theChannelGivenToListenersAndProcessorsIsOneStableIdentity() throws Exception {
        AtomicReference<RemotingChannel> connected = new AtomicReference<>();
        server.setChannelEventListener(new ChannelEventListener() {
            @Override
            public void onConnect(String remoteAddress, RemotingChannel channel) {
                connected.set(channel);
            }
        });
        client.invokeOneway(address, RemotingCommand.createRequest(SILENT), 3000);
        client.invokeOneway(address, RemotingCommand.createRequest(SILENT), 3000);
        await().atMost(Duration.ofSeconds(5)).until(() -> silentChannels.size() == 2 && connected.get() != null);

        List<RemotingChannel> seen = new ArrayList<>(silentChannels);
        assertThat(seen.get(0)).isEqualTo(seen.get(1)).isEqualTo(connected.get());
        assertThat(seen.get(0).hashCode()).isEqualTo(connected.get().hashCode());
        assertThat(Set.of(seen.get(0))).contains(connected.get());
    }

    @Test
    void tooManyAsyncRequestsInFlightAreRefusedUntilPermitsReturn() throws Exception {
        NettyClientConfig config = new NettyClientConfig();
        config.setAsyncSemaphoreValue(2);
        NettyRemotingClient limited = new NettyRemotingClient(config);
        limited.start();
        try {
            CompletableFuture<RemotingCommand> first = limited.invokeAsync(address, RemotingCommand.createRequest(SILENT), 300);
            first.exceptionally(e -> null).get(5, TimeUnit.SECONDS); // connected; its permit is back after the timeout
            CompletableFuture<RemotingCommand> a = limited.invokeAsync(address, RemotingCommand.createRequest(SILENT), 400);
            CompletableFuture<RemotingCommand> b = limited.invokeAsync(address, RemotingCommand.createRequest(SILENT), 400);
            CompletableFuture<RemotingCommand> c = limited.invokeAsync(address, echo("third"), 400);

            assertThatThrownBy(() -> c.get(5, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(RemotingTooMuchRequestException.class)
                    .hasMessageContaining("asyncSemaphoreValue");
            assertThatThrownBy(() -> a.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(RemotingTimeoutException.class);
            assertThatThrownBy(() -> b.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(RemotingTimeoutException.class);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThat(limited.invokeAsync(address, echo("later"), 3000).get(5, TimeUnit.SECONDS).remark())
                            .isEqualTo("later"));
        } finally {
            limited.shutdown();
        }
    }

    @Test
    void concurrentCallersEachGetTheirOwnResponse() throws Exception {
        int threads = 8;
        int calls = 1000;
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(callers.submit(() -> {
                    int matched = 0;
                    for (int i = 0; i < calls; i++) {
                        String say = thread + "/" + i;
                        RemotingCommand response = client.invokeSync(address, echo(say), 10_000);
                        if (say.equals(response.remark())
                                && say.equals(new String(response.body(), StandardCharsets.UTF_8))) {
                            matched++;
                        }
                    }
                    return matched;
                }));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(calls);
            }
        } finally {
            callers.shutdownNow();
        }
        assertThat(server.connectionCount()).isEqualTo(1);
    }

    @Test
    void concurrentFirstCallsShareOneConnection() throws Exception {
        AtomicInteger connects = new AtomicInteger();
        server.setChannelEventListener(new ChannelEventListener() {
            @Override
            public void onConnect(String remoteAddress, RemotingChannel channel) {
                connects.incrementAndGet();
            }
        });
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService callers = Executors.newFixedThreadPool(16);
        try {
            List<Future<RemotingCommand>> results = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                results.add(callers.submit(() -> {
                    go.await();
                    return client.invokeSync(address, echo("x"), 5000);
                }));
            }
            go.countDown();
            for (Future<RemotingCommand> result : results) {
                assertThat(result.get(10, TimeUnit.SECONDS).code()).isEqualTo(ResponseCode.SUCCESS);
            }
        } finally {
            callers.shutdownNow();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> connects.get() == 1);
        assertThat(server.connectionCount()).isEqualTo(1);
    }

    @Test
    void aClosedChannelIsReplacedByTheNextCall() throws Exception {
        client.invokeSync(address, echo("one"), 3000);
        assertThat(client.isConnected(address)).isTrue();

        client.closeChannel(address);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.connectionCount() == 0);

        assertThat(client.invokeSync(address, echo("two"), 3000).remark()).isEqualTo("two");
        assertThat(server.connectionCount()).isEqualTo(1);
    }

    @Test
    void connectingToNothingFailsClearly() throws Exception {
        int freePort;
        try (ServerSocket probe = new ServerSocket(0)) {
            freePort = probe.getLocalPort();
        }
        String nowhere = "127.0.0.1:" + freePort;

        assertThatThrownBy(() -> client.invokeSync(nowhere, echo("x"), 3000))
                .isInstanceOf(RemotingConnectException.class)
                .hasMessageContaining(nowhere)
                .hasMessageContaining("is the server running");
        assertThatThrownBy(() -> client.invokeAsync(nowhere, echo("x"), 3000).get(5, TimeUnit.SECONDS))
                .cause().isInstanceOf(RemotingConnectException.class);
        assertThatThrownBy(() -> client.invokeSync("no-port", echo("x"), 3000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'no-port' is not host:port");
    }

    @Test
    void pendingRequestsFailAtOnceWhenTheServerShutsDown() {
        CompletableFuture<RemotingCommand> waiting =
                client.invokeAsync(address, RemotingCommand.createRequest(SILENT), 60_000);
        await().atMost(Duration.ofSeconds(5)).until(() -> !silentRequests.isEmpty());
        long start = System.nanoTime();

        server.shutdown();

        assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(RemotingConnectException.class)
                .hasMessageContaining("closed before the response to UNKNOWN(9002)");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void invokingSynchronouslyOnAnIoThreadIsRefused() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        client.invokeOneway(address, RemotingCommand.createRequest(SILENT), 3000);
        await().atMost(Duration.ofSeconds(5)).until(() -> !silentChannels.isEmpty());
        NettyRemotingChannel channel = (NettyRemotingChannel) silentChannels.peek();

        channel.nettyChannel().eventLoop().submit(() -> {
            try {
                channel.invokeSync(RemotingCommand.createRequest(RequestCode.CHECK_TRANSACTION_STATE), 1000);
            } catch (Throwable t) {
                failure.set(t);
            }
        }).get(5, TimeUnit.SECONDS);

        assertThat(failure.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("invokeAsync");
    }
}
