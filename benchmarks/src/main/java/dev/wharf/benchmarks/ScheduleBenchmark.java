package dev.wharf.benchmarks;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.embedded.EmbeddedServer;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scheduled-delivery lateness end to end: a NameServer, a broker and a producer and push consumer of the real
 * client in this JVM. Schedules {@code --messages} messages (default 100,000) with delivery times spread evenly
 * over {@code --spread-seconds} (default 60) starting one second after each send, and reports, over every
 * message, how late the broker stored the delivered copy (store time minus due time: the scheduler's own
 * lateness) and how late the listener saw it (receive time minus due time), as p50 / p99 / p99.9 / max, plus
 * the number delivered early (must be 0) or missing.
 *
 * <p>With {@code --rebuild N} it measures something else: the broker's restart with N timer messages pending
 * (due in two hours), i.e. how fast the timer index is rebuilt from the consume queue.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.ScheduleBenchmark}
 * with options in {@code -Dexec.args="--messages 100000 --spread-seconds 60 --dir /data/bench"}. {@code --dir}
 * defaults to a temporary folder, deleted afterwards.
 */
public final class ScheduleBenchmark {

    private static final String TOPIC = "schedule-bench";
    private static final long NOT_SEEN = Long.MIN_VALUE;

    private int messages = 100_000;
    private int rebuild;
    private int spreadSeconds = 60;
    private Path dir;
    private boolean deleteDir;

    public static void main(String[] args) throws Exception {
        ScheduleBenchmark bench = new ScheduleBenchmark();
        bench.parse(args);
        bench.run();
        System.exit(0);
    }

    private void parse(String[] args) throws IOException {
        BenchArgs a = BenchArgs.parse(args, List.of("--messages", "--spread-seconds", "--dir", "--rebuild"));
        messages = a.integer("--messages", messages);
        spreadSeconds = a.integer("--spread-seconds", spreadSeconds);
        rebuild = a.integer("--rebuild", rebuild);
        dir = a.dir("wharf-schedule-bench");
        deleteDir = a.temporaryDir();
    }


    private void run() throws Exception {
        if (rebuild > 0) {
            measureRebuild();
            return;
        }
        BrokerSettings settings = BrokerSettings.defaults();
        settings.store().setStorePathRootDir(dir.resolve("broker").toString());
        settings.netty().setListenPort(0);
        EmbeddedServer server = EmbeddedServer.start(settings, 0);

        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(server.namesrvAddr());
        config.setPollNameServerInterval(1_000);
        long[] due = new long[messages];
        long[] stored = new long[messages];
        long[] received = new long[messages];
        Arrays.fill(stored, NOT_SEEN);
        AtomicInteger seen = new AtomicInteger();
        AtomicInteger duplicates = new AtomicInteger();

        PushConsumer consumer = new PushConsumer("schedule-bench-group", config);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeThreadMin(4);
        consumer.setConsumeThreadMax(4);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            long now = System.currentTimeMillis();
            for (MessageExt m : msgs) {
                int index = ByteBuffer.wrap(m.getBody()).getInt();
                if (index < 0) {
                    continue; // the message that created the topic
                }
                if (stored[index] != NOT_SEEN) {
                    duplicates.incrementAndGet();
                    continue;
                }
                received[index] = now;
                stored[index] = m.getStoreTimestamp();
                seen.incrementAndGet();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        Producer producer = new Producer("schedule-bench-producer", config);
        producer.setMaxInFlightAsyncRequests(2_000);
        producer.start();
        producer.send(new Message(TOPIC, ByteBuffer.allocate(4).putInt(-1).array())); // creates the topic
        consumer.start();

        System.out.printf(Locale.ROOT, "Scheduling %,d messages due 1..%d s after their send...%n", messages,
                spreadSeconds + 1);
        long sendStart = System.currentTimeMillis();
        Semaphore inFlight = new Semaphore(1_000);
        CompletableFuture<?>[] sends = new CompletableFuture<?>[messages];
        for (int i = 0; i < messages; i++) {
            long at = System.currentTimeMillis() + 1_000 + ThreadLocalRandom.current().nextLong(spreadSeconds * 1_000L);
            due[i] = at;
            Message msg = new Message(TOPIC, ByteBuffer.allocate(4).putInt(i).array());
            msg.setDeliverTimeMs(at);
            inFlight.acquire();
            sends[i] = producer.sendAsync(msg).whenComplete((r, e) -> inFlight.release());
        }
        CompletableFuture.allOf(sends).join();
        long sendMillis = System.currentTimeMillis() - sendStart;
        System.out.printf(Locale.ROOT, "Sent in %,d ms (%,.0f msg/s); timer pending %,d%n", sendMillis,
                messages * 1000.0 / Math.max(1, sendMillis), server.broker().schedule().timerPendingCount());

        long lastDue = Arrays.stream(due).max().orElse(0);
        long deadline = lastDue + 30_000;
        while (seen.get() < messages && System.currentTimeMillis() < deadline) {
            Thread.sleep(200); // a measurement loop waiting for the clock, not for a condition of the code under test
        }
        report(due, stored, received, duplicates.get());
        consumer.shutdown();
        producer.shutdown();
        server.close();
        if (deleteDir) {
            Bench.deleteTree(dir);
        }
    }

    private BrokerSettings standaloneSettings() {
        BrokerSettings settings = BrokerSettings.defaults();
        settings.store().setStorePathRootDir(dir.resolve("rebuild").toString());
        settings.netty().setListenPort(0);
        return settings;
    }

    /** Fills the timer queue through the store's send path, then times a clean restart. */
    private void measureRebuild() throws Exception {
        Broker broker = new Broker(standaloneSettings());
        broker.start();
        long due = System.currentTimeMillis() + 7_200_000;
        dev.wharf.broker.schedule.DelayedMessageHook hook = broker.schedule().hook();
        long fillStart = System.currentTimeMillis();
        for (int i = 0; i < rebuild; i++) {
            dev.wharf.store.MessageToStore msg = new dev.wharf.store.MessageToStore();
            msg.setTopic(TOPIC);
            msg.setBody(ByteBuffer.allocate(4).putInt(i).array());
            msg.setBornTimestamp(System.currentTimeMillis());
            msg.putProperty(dev.wharf.common.message.MessageProperties.DELIVER_TIME_MS,
                    String.valueOf(due + i % 60_000));
            String error = hook.route(msg);
            if (error != null) {
                throw new IllegalStateException(error);
            }
            if (!broker.store().putMessage(msg).isOk()) {
                throw new IllegalStateException("put failed");
            }
        }
        while (broker.schedule().timerPendingCount() < rebuild) {
            Thread.sleep(50);
        }
        System.out.printf(Locale.ROOT, "Scheduled %,d timer messages in %,d ms%n", rebuild,
                System.currentTimeMillis() - fillStart);
        broker.shutdown();
        Broker again = new Broker(standaloneSettings());
        long start = System.nanoTime();
        again.start();
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf(Locale.ROOT, "Restart with %,d pending: broker start took %,d ms (index rebuilt: %,d pending)%n",
                rebuild, millis, again.schedule().timerPendingCount());
        again.shutdown();
        if (deleteDir) {
            Bench.deleteTree(dir);
        }
    }

    private void report(long[] due, long[] stored, long[] received, int duplicates) {
        int n = 0;
        int early = 0;
        long[] storeLate = new long[messages];
        long[] receiveLate = new long[messages];
        for (int i = 0; i < messages; i++) {
            if (stored[i] == NOT_SEEN) {
                continue;
            }
            storeLate[n] = stored[i] - due[i];
            receiveLate[n] = received[i] - due[i];
            if (storeLate[n] < 0) {
                early++;
            }
            n++;
        }
        storeLate = Arrays.copyOf(storeLate, n);
        receiveLate = Arrays.copyOf(receiveLate, n);
        Arrays.sort(storeLate);
        Arrays.sort(receiveLate);
        System.out.printf(Locale.ROOT, "Delivered %,d of %,d (missing %,d, delivered twice %,d, early %,d)%n", n,
                messages, messages - n, duplicates, early);
        System.out.println("lateness in ms         p50     p99   p99.9     max");
        System.out.printf(Locale.ROOT, "stored by broker  %7d %7d %7d %7d%n", p(storeLate, 0.5), p(storeLate, 0.99),
                p(storeLate, 0.999), p(storeLate, 1));
        System.out.printf(Locale.ROOT, "seen by listener  %7d %7d %7d %7d%n", p(receiveLate, 0.5),
                p(receiveLate, 0.99), p(receiveLate, 0.999), p(receiveLate, 1));
    }

    private static long p(long[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        int index = (int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
        return sorted[Math.max(0, index)];
    }
}
