package dev.wharf.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandCodec;
import dev.wharf.protocol.RemotingFrameDescriptor;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.codec.RemotingCommandDecoder;
import dev.wharf.remoting.codec.RemotingFrameDecoder;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Floods a real server over real sockets with unfinished frames, stalled frames and malformed frames while a
 * well-behaved client keeps calling it: the memory held for unfinished frames stays within the budget, the
 * flooding connections are closed, the log stays short and the good client is answered throughout.
 */
@Timeout(120)
class FrameLimitsTest {

    private static final int ECHO = 9301;
    private static final int MIB = 1024 * 1024;

    private final ThreadPoolExecutor executor = RemotingExecutors.bounded("limits-echo", 2, 10_000);
    private final List<Socket> sockets = new ArrayList<>();
    private NettyRemotingServer server;
    private NettyRemotingClient client;
    private InetSocketAddress target;

    private void start(NettyServerConfig config) {
        config.setListenPort(0);
        server = new NettyRemotingServer(config);
        server.registerProcessor(ECHO, (channel, request) ->
                RemotingCommand.createResponse(ResponseCode.SUCCESS, request.ext("say")), executor);
        server.start();
        target = new InetSocketAddress("127.0.0.1", server.localPort());
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (client != null) {
            client.shutdown();
        }
        if (server != null) {
            server.shutdown();
        }
        executor.shutdownNow();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        sockets.add(socket);
        socket.connect(target, 3000);
        return socket;
    }

    private String address() {
        return "127.0.0.1:" + target.getPort();
    }

    @Test
    void halfSentLargeFramesAreBoundedByTheBudgetWhileOthersAreServed() throws Exception {
        NettyServerConfig config = new NettyServerConfig();
        config.setMaxFrameLength(4 * MIB + 1024);
        config.setMaxPartialFrameBytes(16 * MIB);
        config.setPartialFrameTimeoutMillis(0);
        start(config);
        int attackers = 60;
        int sentPerAttacker = 3 * MIB;
        long directBefore = directMemory();

        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicLong mostHeld = new AtomicLong();
        AtomicLong mostDirect = new AtomicLong();
        ExecutorService background = Executors.newFixedThreadPool(2);
        Future<?> sampler = background.submit(() -> {
            while (flooding.get()) {
                mostHeld.accumulateAndGet(server.partialFrameBytes(), Math::max);
                mostDirect.accumulateAndGet(directMemory() - directBefore,
                        Math::max);
                Thread.onSpinWait();
            }
        });
        AtomicInteger goodCalls = new AtomicInteger();
        Future<Integer> goodFailures = background.submit(() -> {
            int failures = 0;
            while (flooding.get()) {
                RemotingCommand response = client.invokeSync(address(), echo("alive"), 10_000);
                if (!"alive".equals(response.remark())) {
                    failures++;
                }
                goodCalls.incrementAndGet();
            }
            return failures;
        });

        int refusedWrites = 0;
        try {
            for (int i = 0; i < attackers; i++) {
                Socket socket = connect();
                try {
                    OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
                    // announces a frame of 4 MiB and sends three quarters of it, then stops
                    out.write(ByteBuffer.allocate(8).putInt(4 * MIB - 4)
                            .putInt(RemotingFrameDescriptor.headerLengthWord(0, 100)).array());
                    out.write(new byte[sentPerAttacker]);
                    out.flush();
                } catch (IOException e) {
                    refusedWrites++; // closed by the server while still sending: the budget at work
                }
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> closedByServer() >= attackers - 16 / 3);
        } finally {
            flooding.set(false);
        }
        sampler.get(10, TimeUnit.SECONDS);
        assertThat(goodFailures.get(30, TimeUnit.SECONDS)).isZero();
        background.shutdown();

        LoggerFactory.getLogger(FrameLimitsTest.class).info("{} attackers x {} bytes: held at most {} bytes, the"
                + " allocator's direct memory grew at most {} bytes, {} connections closed by the budget, {} good"
                + " calls served",
                attackers, sentPerAttacker, mostHeld.get(), mostDirect.get(), server.partialFrameEvictions(),
                goodCalls.get());
        assertThat(goodCalls.get()).isPositive();
        // the budget, plus what reads in flight on the server's I/O threads add before it is enforced (a buffer
        // that grows while the budget is full, at most a few MiB each)
        assertThat(mostHeld.get()).isLessThanOrEqualTo(16L * MIB + 3 * 4 * MIB);
        assertThat(server.partialFrameBytes()).isLessThanOrEqualTo(16L * MIB);
        assertThat(server.partialFrameEvictions()).isGreaterThanOrEqualTo(attackers - 16 / 3);
        // unbounded, the attack would hold 180 MiB in buffers (more with their growth by doubling); bounded, the
        // buffers in use stay near the budget, plus what the allocator keeps cached for reuse
        assertThat(mostDirect.get()).isLessThan((long) attackers * sentPerAttacker / 2);
        assertThat(client.invokeSync(address(), echo("after"), 5000).remark()).isEqualTo("after");

        for (Socket socket : sockets) {
            socket.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.partialFrameBytes() == 0);
        assertThat(refusedWrites).isLessThanOrEqualTo(attackers);
    }

    @Test
    void aFrameTrickledInTooSlowlyClosesItsConnectionOnly() throws Exception {
        NettyServerConfig config = new NettyServerConfig();
        config.setPartialFrameTimeoutMillis(500);
        start(config);
        Socket idle = connect();
        Socket slow = connect();
        OutputStream out = slow.getOutputStream();
        out.write(ByteBuffer.allocate(8).putInt(1000).putInt(RemotingFrameDescriptor.headerLengthWord(0, 100))
                .array());
        out.flush();
        // one byte every 50 ms: never idle, never finished
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        trickle.scheduleAtFixedRate(() -> {
            try {
                out.write('x');
                out.flush();
            } catch (IOException closed) {
                throw new IllegalStateException(closed);
            }
        }, 50, 50, TimeUnit.MILLISECONDS);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> isClosed(slow));
        } finally {
            trickle.shutdownNow();
        }
        assertThat(isClosed(idle)).as("a connection without an unfinished frame stays open").isFalse();
        assertThat(client.invokeSync(address(), echo("served"), 5000).remark()).isEqualTo("served");
        await().atMost(Duration.ofSeconds(10)).until(() -> server.partialFrameBytes() == 0);
    }

    @Test
    void aFloodOfMalformedFramesWritesAFewLinesNotOneEach() throws Exception {
        start(new NettyServerConfig());
        Logger codecLog = (Logger) LoggerFactory.getLogger(RemotingCommandDecoder.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        codecLog.addAppender(appender);
        int frames = 20_000;
        long startNanos = System.nanoTime();
        try {
            Socket socket = connect();
            socket.setSoTimeout(30_000);
            ExecutorService writer = Executors.newSingleThreadExecutor();
            Future<?> written = writer.submit(() -> {
                OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
                for (int i = 0; i < frames; i++) {
                    // parseable framing, unreadable header: each is answered with an error
                    out.write(jsonFrame("{\"code\":[],\"opaque\":" + i + ",\"flag\":0}"));
                }
                out.flush();
                return null;
            });
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            for (int i = 0; i < frames; i++) {
                RemotingCommand answer = readFrame(in);
                assertThat(answer.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
            }
            written.get(10, TimeUnit.SECONDS);
            writer.shutdown();
        } finally {
            codecLog.detachAppender(appender);
        }
        long elapsedSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
        List<ILoggingEvent> warns = appender.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
        // one line per 10 s interval at most, whatever the pace
        assertThat(warns).isNotEmpty().hasSizeLessThanOrEqualTo(1 + (int) (elapsedSeconds / 10) + 1);
        assertThat(warns.get(0).getFormattedMessage()).contains("Bad request frame from 127.0.0.1:");
        assertThat(client.invokeSync(address(), echo("still"), 5000).remark()).isEqualTo("still");
    }

    @Test
    void aBudgetSmallerThanTheLargestFrameIsRefusedAtStart() {
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(0);
        config.setMaxFrameLength(2 * MIB);
        config.setMaxPartialFrameBytes(3 * MIB);
        NettyRemotingServer refused = new NettyRemotingServer(config);
        assertThatThrownBy(refused::start).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxPartialFrameBytes (3145728) is smaller than twice maxFrameLength")
                .hasMessageContaining("(2 x 2097152)");
    }

    /** Direct memory in use by Netty's default allocator (the server's buffers come from it). */
    private static long directMemory() {
        return ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric().usedDirectMemory();
    }

    /** Whether the server closed the socket (end of stream or reset), without waiting long for it. */
    private static boolean isClosed(Socket socket) {
        try {
            socket.setSoTimeout(20);
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private long closedByServer() {
        return sockets.stream().filter(FrameLimitsTest::isClosed).count();
    }

    private static RemotingCommand echo(String say) {
        return RemotingCommand.createRequest(ECHO).putExt("say", say);
    }

    private static byte[] jsonFrame(String json) {
        byte[] header = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + header.length).putInt(4 + header.length)
                .putInt(RemotingFrameDescriptor.headerLengthWord(0, header.length)).put(header).array();
    }

    private static RemotingCommand readFrame(DataInputStream data) throws Exception {
        byte[] frame = new byte[data.readInt()];
        data.readFully(frame);
        return RemotingCommandCodec.decode(ByteBuffer.wrap(frame));
    }
}
