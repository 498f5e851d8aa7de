package dev.wharf.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the server answers what its processors cannot: overload, unknown codes, failures; plus events. */
class NettyRemotingServerTest {

    private static final int SLOW = 9101;
    private static final int FAST = 9102;
    private static final int FAILING = 9103;
    private static final int NEEDS_HEADER = 9104;
    private static final int MAPPED = 9105;
    private static final int GUARDED = 9106;

    private final List<ThreadPoolExecutor> executors = new ArrayList<>();
    private final CountDownLatch releaseSlow = new CountDownLatch(1);
    private final AtomicBoolean refuseGuarded = new AtomicBoolean(true);
    private NettyRemotingServer server;
    private NettyRemotingClient client;
    private String address;

    private ThreadPoolExecutor executor(String name, int threads, int queue) {
        ThreadPoolExecutor executor = RemotingExecutors.bounded(name, threads, queue);
        executors.add(executor);
        return executor;
    }

    private void startServer(int idleSeconds) {
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(0);
        config.setChannelMaxIdleTimeSeconds(idleSeconds);
        server = new NettyRemotingServer(config);
        server.registerProcessor(SLOW, (channel, request) -> {
            releaseSlow.await(30, TimeUnit.SECONDS);
            return RemotingCommand.createResponse(ResponseCode.SUCCESS, "slow");
        }, executor("slow", 1, 1));
        server.registerProcessor(FAST, (channel, request) ->
                RemotingCommand.createResponse(ResponseCode.SUCCESS, "fast"), executor("fast", 2, 100));
        server.registerProcessor(FAILING, (channel, request) -> {
            throw new IllegalStateException("disk full on /data");
        }, executor("failing", 1, 10));
        server.registerProcessor(NEEDS_HEADER, (channel, request) -> {
            long offset = request.requireExtLong("queueOffset");
            return RemotingCommand.createResponse(ResponseCode.SUCCESS, "offset " + offset);
        }, executor("header", 1, 10));
        server.registerProcessor(GUARDED, new RequestProcessor() {
            @Override
            public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
                return RemotingCommand.createResponse(ResponseCode.SUCCESS, "guarded");
            }

            @Override
            public boolean rejectRequest() {
                return refuseGuarded.get();
            }
        }, executor("guarded", 1, 10));
        server.start();
        address = "127.0.0.1:" + server.localPort();
    }

    @BeforeEach
    void start() {
        startServer(120);
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
    }

    @AfterEach
    void stop() {
        releaseSlow.countDown();
        client.shutdown();
        server.shutdown();
        executors.forEach(ThreadPoolExecutor::shutdownNow);
    }

    @Test
    void aFullExecutorAnswersSystemBusyWhileOtherCodesKeepAnswering() throws Exception {
        List<CompletableFuture<RemotingCommand>> slow = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            slow.add(client.invokeAsync(address, RemotingCommand.createRequest(SLOW), 30_000));
        }
        // One runs, one waits in the queue, the other 18 are refused at once.
        await().atMost(Duration.ofSeconds(10)).until(() -> slow.stream().filter(CompletableFuture::isDone).count() == 18);
        for (CompletableFuture<RemotingCommand> refused : slow.stream().filter(CompletableFuture::isDone).toList()) {
            assertThat(refused.get().code()).isEqualTo(ResponseCode.SYSTEM_BUSY);
            assertThat(refused.get().remark()).isEqualTo("[OVERLOAD] broker busy, try later");
        }

        RemotingCommand fast = client.invokeSync(address, RemotingCommand.createRequest(FAST), 3000);
        assertThat(fast.remark()).isEqualTo("fast");

        releaseSlow.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> slow.stream().allMatch(CompletableFuture::isDone));
        assertThat(slow.stream().filter(f -> f.join().code() == ResponseCode.SUCCESS).count()).isEqualTo(2);
    }

    @Test
    void anUnknownCodeIsNamedInTheResponse() throws Exception {
        RemotingCommand response = client.invokeSync(address, RemotingCommand.createRequest(4242), 3000);

        assertThat(response.code()).isEqualTo(ResponseCode.REQUEST_CODE_NOT_SUPPORTED);
        assertThat(response.remark()).contains("4242").contains("not supported");
    }

    @Test
    void aDefaultProcessorTakesCodesWithoutTheirOwn() throws Exception {
        server.registerDefaultProcessor((channel, request) ->
                RemotingCommand.createResponse(ResponseCode.SUCCESS, "default " + request.code()),
                executor("default", 1, 10));

        assertThat(client.invokeSync(address, RemotingCommand.createRequest(4242), 3000).remark())
                .isEqualTo("default 4242");
    }

    @Test
    void aFailingProcessorAnswersSystemErrorWithItsMessage() throws Exception {
        RemotingCommand response = client.invokeSync(address, RemotingCommand.createRequest(FAILING), 3000);

        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).isEqualTo("disk full on /data");
        assertThat(client.invokeSync(address, RemotingCommand.createRequest(FAST), 3000).remark()).isEqualTo("fast");
    }

    @Test
    void aMissingOrMalformedHeaderFieldIsNamed() throws Exception {
        RemotingCommand missing = client.invokeSync(address, RemotingCommand.createRequest(NEEDS_HEADER), 3000);
        RemotingCommand malformed = client.invokeSync(address,
                RemotingCommand.createRequest(NEEDS_HEADER).putExt("queueOffset", "ten"), 3000);
        RemotingCommand fine = client.invokeSync(address,
                RemotingCommand.createRequest(NEEDS_HEADER).putExt("queueOffset", 10), 3000);

        assertThat(missing.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(missing.remark()).contains("'queueOffset'");
        assertThat(malformed.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(malformed.remark()).contains("'queueOffset'").contains("'ten'");
        assertThat(fine.remark()).isEqualTo("offset 10");
    }

    @Test
    void aProcessorCanRefuseRequestsForAWhile() throws Exception {
        RemotingCommand refused = client.invokeSync(address, RemotingCommand.createRequest(GUARDED), 3000);
        refuseGuarded.set(false);
        RemotingCommand served = client.invokeSync(address, RemotingCommand.createRequest(GUARDED), 3000);

        assertThat(refused.code()).isEqualTo(ResponseCode.SYSTEM_BUSY);
        assertThat(served.remark()).isEqualTo("guarded");
    }

    @Test
    void sendsMemoryMappedSlicesAndReleasesThemOnceWritten(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("00000000000000000000");
        Files.write(file, "....stored message bytes....".getBytes(StandardCharsets.US_ASCII));
        AtomicInteger released = new AtomicInteger();
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ)) {
            MappedByteBuffer mapped = fc.map(FileChannel.MapMode.READ_ONLY, 0, fc.size());
            server.registerProcessor(MAPPED, (channel, request) -> {
                ByteBuffer first = mapped.slice(4, 7);
                ByteBuffer second = mapped.slice(11, 13);
                return RemotingCommand.createResponse(ResponseCode.SUCCESS, null)
                        .setBodyBuffers(List.of(first, second), released::incrementAndGet);
            }, executor("mapped", 1, 10));

            RemotingCommand response = client.invokeSync(address, RemotingCommand.createRequest(MAPPED), 3000);

            assertThat(new String(response.body(), StandardCharsets.US_ASCII)).isEqualTo("stored message bytes");
            await().atMost(Duration.ofSeconds(5)).until(() -> released.get() == 1);
        }
    }

    @Test
    void theListenerHearsConnectsAndClosesOfClients() throws Exception {
        ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
        server.setChannelEventListener(new ChannelEventListener() {
            @Override
            public void onConnect(String remoteAddress, RemotingChannel channel) {
                events.add("connect " + remoteAddress);
            }

            @Override
            public void onClose(String remoteAddress, RemotingChannel channel) {
                events.add("close " + remoteAddress);
            }
        });

        client.invokeSync(address, RemotingCommand.createRequest(FAST), 3000);
        client.closeChannel(address);

        await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 2);
        List<String> seen = new ArrayList<>(events);
        assertThat(seen.get(0)).startsWith("connect 127.0.0.1:");
        assertThat(seen.get(1)).isEqualTo("close " + seen.get(0).substring("connect ".length()));
    }

    @Test
    void anIdleConnectionIsClosed() throws Exception {
        stop();
        startServer(1);
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        CountDownLatch idle = new CountDownLatch(1);
        server.setChannelEventListener(new ChannelEventListener() {
            @Override
            public void onIdle(String remoteAddress, RemotingChannel channel) {
                idle.countDown();
            }
        });

        client.invokeSync(address, RemotingCommand.createRequest(FAST), 3000);

        assertThat(idle.await(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> !client.isConnected(address));
    }

    @Test
    void aPortInUseFailsStartWithAClearMessage() throws IOException {
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(server.localPort());
        NettyRemotingServer second = new NettyRemotingServer(config);

        assertThatThrownBy(second::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot listen on 127.0.0.1:" + server.localPort())
                .hasMessageContaining("listenPort");
        second.shutdown();
    }

    @Test
    void configurationRejectsNonsenseWithTheValidRange() {
        NettyServerConfig config = new NettyServerConfig();

        assertThatThrownBy(() -> config.setListenPort(70_000)).hasMessageContaining("listenPort must be 0..65535");
        assertThatThrownBy(() -> config.setSelectorThreads(0)).hasMessageContaining("selectorThreads must be at least 1");
        assertThatThrownBy(() -> new NettyClientConfig().setConnectTimeoutMillis(0))
                .hasMessageContaining("connectTimeoutMillis");
        assertThat(config.getMaxFrameLength()).isEqualTo(16 * 1024 * 1024 + 64 * 1024);
        assertThat(config.getBindAddress()).isEqualTo("127.0.0.1");
        assertThat(config.getListenPort()).isEqualTo(10911);
    }
}
