package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.message.Message;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.testing.TestWharf;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Committed offsets survive consumer and broker restarts; a killed consumer's work is redelivered, none skipped. */
class OffsetsAndCrashTest {

    private static final Logger log = LoggerFactory.getLogger(OffsetsAndCrashTest.class);

    @TempDir
    Path dir;
    private TestWharf cluster;
    private Producer producer;

    @BeforeEach
    void start() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        cluster.createTopic("durable", 4);
        producer = new Producer("durable-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private PushConsumer consumer(String group, Deliveries got) throws Exception {
        PushConsumer consumer = new PushConsumer(group, cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("durable", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            got.add("c", msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        return consumer;
    }

    private Set<String> send(int count, String prefix) throws Exception {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < count; i++) {
            String body = prefix + i;
            // after a broker restart the first sends may go to its old address until the route is refreshed
            await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50)).atMost(Duration.ofSeconds(10))
                    .ignoreExceptions().until(() ->
                    ids.add(producer.send(new Message("durable", body.getBytes(StandardCharsets.UTF_8))).msgId()));
        }
        return ids;
    }

    @Test
    void offsetsSurviveAConsumerRestartAndABrokerRestart() throws Exception {
        Deliveries first = new Deliveries();
        PushConsumer c1 = consumer("durable-group", first);
        Set<String> before = send(30, "before-");
        await().atMost(Duration.ofSeconds(20)).until(() -> first.ids().containsAll(before));
        c1.shutdown(); // commits

        cluster.stopBroker("broker-a");
        cluster.startBroker("broker-a");
        Set<String> after = send(20, "after-");

        Deliveries second = new Deliveries();
        consumer("durable-group", second);
        await().atMost(Duration.ofSeconds(20)).until(() -> second.ids().containsAll(after));
        assertThat(second.ids()).as("nothing committed before the restarts comes again").doesNotContainAnyElementsOf(before);
        assertThat(second.duplicates()).isZero();
    }

    @Test
    void aKilledConsumerProcessLosesNothing() throws Exception {
        Set<String> sent = send(200, "crash-");
        ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), CrashingConsumerMain.class.getName(),
                cluster.namesrvAddr(), "crash-group", "durable", "crasher")
                .redirectErrorStream(false)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        Process child = builder.start();
        Set<String> childGot = ConcurrentHashMap.newKeySet();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("GOT ")) {
                        childGot.add(line.substring(4));
                    }
                }
            } catch (java.io.IOException e) {
                // the process was killed
            }
        });
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> childGot.size() >= 60);
        } finally {
            child.destroyForcibly(); // no shutdown hook, no final commit
            child.waitFor(10, TimeUnit.SECONDS);
            reader.join(5_000);
        }
        int consumedBeforeCrash = childGot.size();

        Deliveries after = new Deliveries();
        consumer("crash-group", after);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Set<String> union = new HashSet<>(childGot);
            union.addAll(after.ids());
            return union.containsAll(sent);
        });
        Set<String> redelivered = new HashSet<>(after.ids());
        redelivered.retainAll(childGot);
        log.info("Crash: the killed consumer had consumed {} of {} messages; {} of those were delivered again "
                + "(consumed after its last commit)", consumedBeforeCrash, sent.size(), redelivered.size());
        assertThat(consumedBeforeCrash).isLessThan(sent.size());
    }
}
