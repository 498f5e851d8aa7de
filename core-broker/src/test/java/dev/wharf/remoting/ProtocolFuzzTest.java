package dev.wharf.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandCodec;
import dev.wharf.protocol.RemotingFrameDescriptor;
import dev.wharf.protocol.ResponseCode;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Raw sockets throw broken, truncated, oversized and garbage frames at a server while a well-behaved
 * client keeps calling it; afterwards the server still answers and none of its threads died.
 */
class ProtocolFuzzTest {

    private static final int ECHO = 9201;
    private static final int MAX_FRAME = 64 * 1024;
    private static final long FIXED_SEED = 0x5EED_F00DL;

    private final ThreadPoolExecutor executor = RemotingExecutors.bounded("fuzz-echo", 2, 10_000);
    private NettyRemotingServer server;
    private NettyRemotingClient client;
    private InetSocketAddress target;

    @BeforeEach
    void start() {
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(0);
        config.setMaxFrameLength(MAX_FRAME);
        server = new NettyRemotingServer(config);
        server.registerProcessor(ECHO, (channel, request) ->
                RemotingCommand.createResponse(ResponseCode.SUCCESS, request.ext("say")), executor);
        server.start();
        target = new InetSocketAddress("127.0.0.1", server.localPort());
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
    }

    @AfterEach
    void stop() {
        client.shutdown();
        server.shutdown();
        executor.shutdownNow();
    }

    private String address() {
        return "127.0.0.1:" + target.getPort();
    }

    @Test
    void survivesGarbageFromFixedAndRandomSeeds() throws Exception {
        List<Thread> serverThreads = warmUpServerThreads();
        AtomicBoolean fuzzing = new AtomicBoolean(true);
        AtomicInteger goodCalls = new AtomicInteger();
        ExecutorService good = Executors.newSingleThreadExecutor();
        Future<Integer> goodFailures = good.submit(() -> {
            int failures = 0;
            while (fuzzing.get()) {
                RemotingCommand response = client.invokeSync(address(), echo("alive"), 5000);
                if (!"alive".equals(response.remark())) {
                    failures++;
                }
                goodCalls.incrementAndGet();
            }
            return failures;
        });

        long randomSeed = new Random().nextLong();
        Logger remotingLog = (Logger) LoggerFactory.getLogger("dev.wharf.remoting");
        Level previous = remotingLog.getLevel();
        remotingLog.setLevel(Level.ERROR); // thousands of deliberate WARN lines would drown the build log
        int cases;
        try {
            cases = fuzz(FIXED_SEED) + fuzz(randomSeed);
            // Let the server finish with the fuzzing connections (only the good client's stays open).
            await().atMost(Duration.ofSeconds(10)).until(() -> server.connectionCount() <= 1);
        } finally {
            remotingLog.setLevel(previous);
            fuzzing.set(false);
        }

        assertThat(goodFailures.get(30, TimeUnit.SECONDS)).as("seed %d", randomSeed).isZero();
        good.shutdown();
        assertThat(cases).isGreaterThan(3000);
        assertThat(goodCalls.get()).isPositive();
        for (int i = 0; i < 6; i++) {
            NettyRemotingClient fresh = new NettyRemotingClient(new NettyClientConfig());
            fresh.start();
            try {
                assertThat(fresh.invokeSync(address(), echo("after " + i), 5000).remark())
                        .as("seed %d", randomSeed).isEqualTo("after " + i);
            } finally {
                fresh.shutdown();
            }
        }
        assertThat(serverThreads).as("server threads alive after seed %d", randomSeed).allMatch(Thread::isAlive);
    }

    @Test
    void aBadConnectionCostsOneWarnLineWithItsAddress() throws Exception {
        Logger codecLog = (Logger) LoggerFactory.getLogger("dev.wharf.remoting");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        codecLog.addAppender(appender);
        try (Socket socket = new Socket()) {
            socket.connect(target, 3000);
            socket.setSoTimeout(5000);
            String local = "127.0.0.1:" + socket.getLocalPort();
            OutputStream out = socket.getOutputStream();
            out.write(ByteBuffer.allocate(12).putInt(Integer.MAX_VALUE).putInt(0).putInt(0).array());
            out.flush();

            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            await().atMost(Duration.ofSeconds(5)).until(() -> warnings(appender) >= 1);
            List<ILoggingEvent> warns = appender.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
            assertThat(warns).hasSize(1);
            assertThat(warns.get(0).getFormattedMessage()).contains(local).contains("exceeds the maximum frame length");
        } finally {
            codecLog.detachAppender(appender);
        }
    }

    @Test
    void aBadRequestWithAReadableOpaqueIsAnsweredAndTheConnectionStaysUsable() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(target, 3000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(jsonFrame("{\"code\":[],\"opaque\":31337,\"flag\":0}", new byte[0]));
            out.write(frameOf(echo("still here").setOpaque(31338)));
            out.flush();

            RemotingCommand error = readFrame(socket.getInputStream());
            RemotingCommand echo = readFrame(socket.getInputStream());

            assertThat(error.opaque()).isEqualTo(31337);
            assertThat(error.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
            assertThat(error.remark()).contains("'code'");
            assertThat(echo.opaque()).isEqualTo(31338);
            assertThat(echo.remark()).isEqualTo("still here");
        }
    }

    /** Starts every server I/O thread (connections are spread round-robin) and returns them. */
    private List<Thread> warmUpServerThreads() throws Exception {
        for (int i = 0; i < 6; i++) {
            NettyRemotingClient warm = new NettyRemotingClient(new NettyClientConfig());
            warm.start();
            try {
                warm.invokeSync(address(), echo("warm"), 5000);
            } finally {
                warm.shutdown();
            }
        }
        List<Thread> threads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("wharf-remoting-server") || t.getName().startsWith("fuzz-echo"))
                .toList();
        assertThat(threads).isNotEmpty();
        return threads;
    }

    /**
     * Opens connections; over each sends a run of frames the server must survive and answer (checked by
     * opaque), then usually one frame or fragment it must not survive. Returns how many cases were sent.
     */
    private int fuzz(long seed) throws Exception {
        Random random = new Random(seed);
        int cases = 0;
        for (int connection = 0; connection < 300; connection++) {
            try (Socket socket = new Socket()) {
                socket.setSoLinger(true, 0);
                socket.setSoTimeout(5000);
                socket.connect(target, 3000);
                OutputStream out = socket.getOutputStream();
                Set<Integer> expected = new HashSet<>();
                for (int i = random.nextInt(12); i > 0; i--) {
                    cases++;
                    out.write(survivableCase(random, expected));
                }
                out.flush();
                Set<Integer> answered = new HashSet<>();
                while (answered.size() < expected.size()) {
                    answered.add(readFrame(socket.getInputStream()).opaque());
                }
                assertThat(answered).as("answers on connection %d, seed %d", connection, seed).isEqualTo(expected);
                if (random.nextInt(5) > 0) {
                    cases++;
                    writeIgnoringClose(out, fatalCase(random));
                }
            }
        }
        return cases;
    }

    private static void writeIgnoringClose(OutputStream out, byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException expected) {
            // The server may already have closed the connection: that is the point of these frames.
        }
    }

    /** A frame the connection must survive; adds the opaque to {@code expected} if it must be answered. */
    private static byte[] survivableCase(Random random, Set<Integer> expected) {
        int opaque = random.nextInt();
        while (expected.contains(opaque)) {
            opaque = random.nextInt();
        }
        boolean oneway = random.nextInt(4) == 0;
        int flag = oneway ? RemotingFrameDescriptor.FLAG_ONEWAY : 0;
        if (!oneway) {
            expected.add(opaque);
        }
        return switch (random.nextInt(5)) {
            case 0 -> frameOf(echo("ok").setOpaque(opaque).setFlag(flag)
                    .setBody(randomBytes(random, random.nextInt(2000))));
            case 1 -> jsonFrame("{\"code\":\"" + random.nextInt() + "\",\"opaque\":" + opaque + ",\"flag\":" + flag
                    + "}", randomBytes(random, random.nextInt(50)));
            case 2 -> jsonFrame("{\"code\":" + (100_000 + random.nextInt(1000)) + ",\"opaque\":" + opaque
                    + ",\"flag\":" + flag + ",\"extFields\":{\"k\":\"v\"},\"x\":[{}]}", randomBytes(random, 10));
            case 3 -> jsonFrame("{\"flag\":" + flag + ",\"opaque\":" + opaque + ",\"extFields\":{\"a\":{\"b\":1}},"
                    + "\"code\":" + ECHO + "}", new byte[0]);
            default -> {
                // A RocketMQ binary header, mostly too short or with lengths that do not add up: its opaque is read,
                // so it is answered (the 21-byte one is a valid empty echo request)
                byte[] header = ByteBuffer.allocate(13 + random.nextInt(20)).putShort((short) ECHO).put((byte) 0)
                        .putShort((short) 1).putInt(opaque).putInt(flag).array();
                yield ByteBuffer.allocate(8 + header.length).putInt(4 + header.length)
                        .putInt(RemotingFrameDescriptor.headerLengthWord(1, header.length)).put(header).array();
            }
        };
    }

    /** Bytes after which the server should give up on the connection (or wait for more, then see it close). */
    private static byte[] fatalCase(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> randomBytes(random, 1 + random.nextInt(300));
            case 1 -> ByteBuffer.allocate(8 + 64).putInt(MAX_FRAME + random.nextInt(Integer.MAX_VALUE - MAX_FRAME))
                    .putInt(random.nextInt()).array();
            case 2 -> ByteBuffer.allocate(8).putInt(random.nextInt(4) - (random.nextBoolean() ? 0 : 1_000_000))
                    .putInt(random.nextInt()).array();
            case 3 -> {
                int actual = random.nextInt(64);
                ByteBuffer b = ByteBuffer.allocate(8 + actual).putInt(4 + actual)
                        .putInt(RemotingFrameDescriptor.headerLengthWord(0, actual + 1 + random.nextInt(5000)));
                yield b.put(randomBytes(random, actual)).array();
            }
            case 4 -> mutatedHeader(random);
            case 5 -> jsonFrame(randomJsonish(random), randomBytes(random, random.nextInt(32)));
            case 6 -> {
                byte[] header = randomBytes(random, random.nextInt(40));
                int type = 2 + random.nextInt(254);
                yield ByteBuffer.allocate(8 + header.length).putInt(4 + header.length)
                        .putInt(RemotingFrameDescriptor.headerLengthWord(type, header.length)).put(header).array();
            }
            case 7 -> jsonFrame("[".repeat(1 + random.nextInt(2000)), new byte[0]);
            case 8 -> jsonFrame("{\"code\":\"x\",\"opaque\":1,\"flag\":1}", new byte[0]); // an unreadable response
            default -> {
                byte[] whole = frameOf(echo("cut"));
                yield Arrays.copyOf(whole, 1 + random.nextInt(whole.length - 1)); // truncated
            }
        };
    }

    private static byte[] mutatedHeader(Random random) {
        byte[] header = RemotingCommandCodec.encodeHeader(echo("mutate").putExt("topic", "T"));
        for (int flips = 1 + random.nextInt(5); flips > 0; flips--) {
            header[random.nextInt(header.length)] = (byte) random.nextInt(256);
        }
        return ByteBuffer.allocate(8 + header.length).putInt(4 + header.length)
                .putInt(RemotingFrameDescriptor.headerLengthWord(0, header.length)).put(header).array();
    }

    private static String randomJsonish(Random random) {
        String[] pieces = {"{", "}", "[", "]", ":", ",", "\"code\"", "\"opaque\"", "\"flag\"", "\"extFields\"",
                "1", "-7", "99999999999999999999", "1.5e300", "null", "true", "\"s\"", "\"\\u0000\"", " ", "\"\\"};
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(30); i >= 0; i--) {
            sb.append(pieces[random.nextInt(pieces.length)]);
        }
        return sb.toString();
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static RemotingCommand echo(String say) {
        return RemotingCommand.createRequest(ECHO).putExt("say", say);
    }

    private static byte[] frameOf(RemotingCommand command) {
        ByteBuffer frame = RemotingCommandCodec.encode(command);
        byte[] bytes = new byte[frame.remaining()];
        frame.get(bytes);
        return bytes;
    }

    private static byte[] jsonFrame(String json, byte[] body) {
        byte[] header = json.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + header.length + body.length).putInt(4 + header.length + body.length)
                .putInt(RemotingFrameDescriptor.headerLengthWord(0, header.length)).put(header).put(body).array();
    }

    private static RemotingCommand readFrame(InputStream in) throws Exception {
        DataInputStream data = new DataInputStream(in);
        byte[] frame = new byte[data.readInt()];
        data.readFully(frame);
        return RemotingCommandCodec.decode(ByteBuffer.wrap(frame));
    }

    private static long warnings(ListAppender<ILoggingEvent> appender) {
        return appender.list.stream().filter(e -> e.getLevel() == Level.WARN).count();
    }
}
