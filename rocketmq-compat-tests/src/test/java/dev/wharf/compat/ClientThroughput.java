package dev.wharf.compat;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.producer.Producer;
import dev.wharf.protocol.body.ConsumerModel;
import dev.wharf.testing.TestWharf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;

/**
 * Send and consume throughput of the Apache RocketMQ client against Wharf next to Wharf's own client against the same
 * Wharf broker, in one run: a NameServer and a broker in this JVM, then rounds that alternate the two clients (so
 * that drift of the machine hits both alike), after one uncounted warm-up round of each. Each round: {@code --threads} threads send {@code --size}-byte messages
 * synchronously to the client's own topic for {@code --seconds}; then a push consumer of a new group reads that
 * topic from its first offset, and its rate is the messages of the topic over the time until the last one arrived.
 * Prints each round and the median of each figure, with the ratio RocketMQ client ÷ Wharf client. Not a test: a
 * tool, kept in this module because the RocketMQ client may be on no other class path.
 *
 * <p>Run: {@code mvn -q -pl rocketmq-compat-tests -am test-compile exec:java -Dexec.args="--seconds 10"}
 * (the module's exec configuration names this class and the test class path).
 * Options: {@code --seconds} per send phase (default 10, after a 3 s warm-up per client), {@code --rounds} (default
 * 3), {@code --threads} (default 4), {@code --size} (default 1024), {@code --apache}: the RocketMQ client against
 * Apache RocketMQ's own NameServer and broker in the same JVM as a third contender (needs {@code -Papache-broker}).
 */
public final class ClientThroughput {

    private static final int QUEUES = 8;

    private int seconds = 10;
    private int rounds = 3;
    private int threads = 4;
    private int size = 1024;
    private boolean apache;
    private TestWharf servers;
    private ApacheServers apacheServers;
    private int run;

    /** One client's way to send and to consume. */
    private interface Client {
        String name();

        /** A sender for one thread; throws on a failed send. */
        Sender sender() throws Exception;

        void closeSenders();

        /** Messages per second a new push consumer group reads the topic (all of it, {@code count} messages). */
        double consume(String topic, long count) throws Exception;
    }

    private interface Sender {
        void send(String topic, byte[] body) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        ClientThroughput bench = new ClientThroughput();
        bench.parse(args);
        bench.run();
        System.exit(0);
    }

    private void parse(String[] args) {
        for (int i = 0; i < args.length; i += 2) {
            if (args[i].equals("--apache")) {
                apache = true;
                i--;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            int value = Integer.parseInt(args[i + 1]);
            switch (args[i]) {
                case "--seconds" -> seconds = value;
                case "--rounds" -> rounds = value;
                case "--threads" -> threads = value;
                case "--size" -> size = value;
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; use --seconds, --rounds, --threads, --size or --apache");
            }
        }
    }

    private void run() throws Exception {
        Path dir = Files.createTempDirectory("client-throughput");
        servers = WharfServers.start(dir, s -> {
            s.store().setMappedFileSizeCommitLog(256 * 1024 * 1024);
            s.store().setMappedFileSizeConsumeQueue(20 * 300_000);
            s.store().setMaxHashSlotNum(500_000);
            s.store().setMaxIndexNum(2_000_000);
            s.netty().setSelectorThreads(2);
            s.broker().executors().setSendMessageThreadPoolNums(4);
            s.broker().setDefaultTopicQueueNums(QUEUES);
        });
        List<Client> clients = new ArrayList<>(List.of(new RocketMqClient("RocketMQ->Wharf", servers.namesrvAddr()),
                new WharfClient()));
        if (apache) {
            apacheServers = ApacheServers.start(dir.resolve("apache"), QUEUES);
            clients.add(new RocketMqClient("RocketMQ->Apache", apacheServers.namesrvAddr()));
        }
        List<List<double[]>> results = new ArrayList<>();
        clients.forEach(c -> results.add(new ArrayList<>()));
        System.out.printf(Locale.ROOT, "%d rounds, %d threads, %d-byte bodies, %d s sends, synchronous%n", rounds,
                threads, size, seconds);
        try {
            for (Client client : clients) {
                // class loading and JIT compilation of each client's and the broker's paths: not counted
                double[] figures = round(client);
                System.out.printf(Locale.ROOT, "warm-up %-16s send %,10.0f msg/s   consume %,10.0f msg/s%n",
                        client.name(), figures[0], figures[1]);
            }
            for (int r = 0; r < rounds; r++) {
                for (int c = 0; c < clients.size(); c++) {
                    // alternate which client goes first, so neither always runs on the fuller store
                    Client client = clients.get((c + r) % clients.size());
                    double[] figures = round(client);
                    results.get((c + r) % clients.size()).add(figures);
                    System.out.printf(Locale.ROOT, "round %d  %-16s send %,10.0f msg/s   consume %,10.0f msg/s%n",
                            r + 1, client.name(), figures[0], figures[1]);
                }
            }
        } finally {
            servers.close();
            if (apacheServers != null) {
                apacheServers.close();
            }
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        List<double[]> medians = new ArrayList<>();
        for (int c = 0; c < clients.size(); c++) {
            double[] m = medians(results.get(c));
            medians.add(m);
            System.out.printf(Locale.ROOT, "median  %-16s send %,10.0f msg/s   consume %,10.0f msg/s%n",
                    clients.get(c).name(), m[0], m[1]);
        }
        System.out.printf(Locale.ROOT, "ratio RocketMQ client / Wharf client, both on Wharf: send %.2fx, consume %.2fx%n",
                medians.get(0)[0] / medians.get(1)[0], medians.get(0)[1] / medians.get(1)[1]);
        if (apache) {
            System.out.printf(Locale.ROOT, "ratio RocketMQ client on Wharf / on Apache RocketMQ: send %.2fx, consume"
                    + " %.2fx%n", medians.get(0)[0] / medians.get(2)[0], medians.get(0)[1] / medians.get(2)[1]);
        }
    }

    private double[] round(Client client) throws Exception {
        String topic = "Bench" + client.name().replaceAll("[^A-Za-z]", "") + (++run);
        byte[] body = new byte[size];
        for (int i = 0; i < size; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        List<Sender> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            senders.add(client.sender());
        }
        senders.get(0).send(topic, body); // creates the topic
        long warmUpEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        long end = warmUpEnd + TimeUnit.SECONDS.toNanos(seconds);
        AtomicLong counted = new AtomicLong();
        AtomicLong total = new AtomicLong(1);
        CountDownLatch done = new CountDownLatch(threads);
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (Sender sender : senders) {
            Thread thread = new Thread(() -> {
                try {
                    long now;
                    while ((now = System.nanoTime()) < end) {
                        sender.send(topic, body);
                        total.incrementAndGet();
                        if (now >= warmUpEnd) {
                            counted.incrementAndGet();
                        }
                    }
                } catch (Throwable t) {
                    failures.add(t);
                } finally {
                    done.countDown();
                }
            }, "bench-sender");
            thread.start();
        }
        done.await();
        client.closeSenders();
        if (!failures.isEmpty()) {
            throw new IllegalStateException(client.name() + " send failed", failures.get(0));
        }
        double sendTps = counted.get() / (double) seconds;
        double consumeTps = client.consume(topic, total.get());
        return new double[] {sendTps, consumeTps};
    }

    private static double[] medians(List<double[]> rows) {
        double[] out = new double[2];
        for (int i = 0; i < 2; i++) {
            final int column = i;
            List<Double> values = new ArrayList<>(rows.stream().map(r -> r[column]).toList());
            Collections.sort(values);
            int n = values.size();
            out[i] = n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
        }
        return out;
    }

    private static double rate(long count, long startNanos, long lastNanos) {
        return count * 1e9 / Math.max(1, lastNanos - startNanos);
    }

    private final class RocketMqClient implements Client {
        private final List<DefaultMQProducer> producers = new ArrayList<>();
        private final String name;
        private final String namesrvAddr;

        RocketMqClient(String name, String namesrvAddr) {
            this.name = name;
            this.namesrvAddr = namesrvAddr;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Sender sender() throws Exception {
            DefaultMQProducer producer = new DefaultMQProducer("bench-rmq-pg-" + run + "-" + producers.size());
            producer.setNamesrvAddr(namesrvAddr);
            producer.setInstanceName("bench-rmq-" + run + "-" + producers.size());
            producer.setSendMsgTimeout(15_000);
            producer.start();
            producers.add(producer);
            return (topic, body) -> {
                var result = producer.send(new Message(topic, body));
                if (result.getSendStatus() != org.apache.rocketmq.client.producer.SendStatus.SEND_OK) {
                    throw new IllegalStateException("send status " + result.getSendStatus());
                }
            };
        }

        @Override
        public void closeSenders() {
            producers.forEach(DefaultMQProducer::shutdown);
            producers.clear();
        }

        @Override
        public double consume(String topic, long count) throws Exception {
            AtomicLong seen = new AtomicLong();
            AtomicLong last = new AtomicLong();
            DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("bench-rmq-cg-" + run);
            consumer.setNamesrvAddr(namesrvAddr);
            consumer.setInstanceName("bench-rmq-c-" + run);
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.subscribe(topic, "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                if (seen.addAndGet(msgs.size()) >= count) {
                    last.compareAndSet(0, System.nanoTime());
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            long start = System.nanoTime();
            consumer.start();
            try {
                return awaitAll(seen, last, count, start);
            } finally {
                consumer.shutdown();
            }
        }
    }

    private final class WharfClient implements Client {
        private final List<Producer> producers = new ArrayList<>();

        @Override
        public String name() {
            return "Wharf client";
        }

        private ClientConfig config(String instance) {
            ClientConfig config = new ClientConfig();
            config.setNamesrvAddr(servers.namesrvAddr());
            config.setInstanceName(instance);
            return config;
        }

        @Override
        public Sender sender() throws Exception {
            Producer producer = new Producer("bench-wharf-pg-" + run + "-" + producers.size(),
                    config("bench-wharf-" + run + "-" + producers.size()));
            producer.start();
            producers.add(producer);
            return (topic, body) -> producer.send(new dev.wharf.common.message.Message(topic, body), 15_000);
        }

        @Override
        public void closeSenders() {
            producers.forEach(Producer::shutdown);
            producers.clear();
        }

        @Override
        public double consume(String topic, long count) throws Exception {
            AtomicLong seen = new AtomicLong();
            AtomicLong last = new AtomicLong();
            dev.wharf.client.consumer.PushConsumer consumer = new dev.wharf.client.consumer.PushConsumer(
                    "bench-wharf-cg-" + run, config("bench-wharf-c-" + run));
            consumer.setConsumeFromWhere(ConsumerModel.ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.subscribe(topic, "*");
            consumer.registerMessageListener((dev.wharf.client.consumer.MessageListenerConcurrently) (msgs, ctx) -> {
                if (seen.addAndGet(msgs.size()) >= count) {
                    last.compareAndSet(0, System.nanoTime());
                }
                return dev.wharf.client.consumer.ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            long start = System.nanoTime();
            consumer.start();
            try {
                return awaitAll(seen, last, count, start);
            } finally {
                consumer.shutdown();
            }
        }
    }

    private static double awaitAll(AtomicLong seen, AtomicLong last, long count, long start) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (last.get() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("consumed " + seen.get() + " of " + count + " in 5 minutes");
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return rate(count, start, last.get());
    }
}
