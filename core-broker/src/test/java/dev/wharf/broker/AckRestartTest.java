package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.AckProtocol.Got;
import dev.wharf.broker.AckProtocol.Popped;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.body.TopicPerm;
import dev.wharf.protocol.header.RouteHeaders.CreateTopicRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Acknowledgement state across broker restarts: clean shutdown, and a broker process killed outright. */
class AckRestartTest {

    private static final long LEASE = 60_000;
    private static final String TOPIC = "Durable";

    @TempDir
    Path dir;

    /** Sends, pops, acks in random order, releases one uncounted; returns the expected count per body. */
    private static Map<String, Integer> exercise(String address) throws Exception {
        Map<String, Integer> expected = new HashMap<>();
        try (ProtocolClient producer = new ProtocolClient(address); AckProtocol c = new AckProtocol(address, "durable")) {
            for (int i = 0; i < 20; i++) {
                producer.sendOk(TOPIC, i % 2, ("m" + i).getBytes(StandardCharsets.UTF_8), Map.of());
                expected.put("m" + i, 1);
            }
            List<Got> popped = new ArrayList<>();
            while (popped.size() < 15) {
                Popped p = c.pop(TOPIC, -1, 15 - popped.size(), LEASE, 2_000, null);
                popped.addAll(p.messages());
            }
            popped.forEach(g -> expected.put(g.body(), 2)); // popped and not acked: counts as delivered
            List<Got> shuffled = new ArrayList<>(popped);
            Collections.shuffle(shuffled, new Random(3));
            for (Got g : shuffled.subList(0, 6)) {
                c.ack(TOPIC, List.of(g));
                expected.remove(g.body());
            }
            Got released = shuffled.get(6);
            c.change(TOPIC, List.of(released), LEASE, false); // prefetched, never shown: does not count
            expected.put(released.body(), 1);
        }
        return expected;
    }

    /** Pops everything left and returns body -> delivery count. */
    private static Map<String, Integer> drain(String address) throws Exception {
        Map<String, Integer> got = new HashMap<>();
        try (AckProtocol c = new AckProtocol(address, "durable")) {
            while (true) {
                Popped p = c.pop(TOPIC, -1, 32, LEASE, 500, null);
                if (p.messages().isEmpty()) {
                    return got;
                }
                for (Got g : p.messages()) {
                    assertThat(got.put(g.body(), g.count())).as("delivered twice: %s", g.body()).isNull();
                }
                c.ack(TOPIC, p.messages());
            }
        }
    }

    @Test
    void aCleanRestartKeepsAcknowledgementsAndCountsUnacknowledgedDeliveries() throws Exception {
        Broker first = BrokerFixture.start(dir);
        Map<String, Integer> expected;
        try {
            first.topics().update(new TopicConfig(TOPIC, 2));
            expected = exercise(first.address());
        } finally {
            first.shutdown();
        }
        assertThat(Files.exists(dir.resolve("config").resolve("ackState.json"))).isTrue();
        Broker second = BrokerFixture.start(dir);
        try {
            assertThat(drain(second.address())).isEqualTo(expected);
            assertThat(second.ack().stats("durable", TOPIC).queues())
                    .allSatisfy(q -> assertThat(q.ackOffset()).isEqualTo(10));
        } finally {
            second.shutdown();
        }
    }

    @Test
    void aKilledBrokerProcessLosesNoAcknowledgement() throws Exception {
        Path addressFile = dir.resolve("address");
        Path store = dir.resolve("store");
        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), ChildBrokerMain.class.getName(), store.toString(),
                addressFile.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(dir.resolve("child.err").toFile())
                .start();
        Map<String, Integer> expected;
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(addressFile) || !child.isAlive());
            assertThat(child.isAlive()).as("the broker process died; see %s", dir.resolve("child.err")).isTrue();
            String address = Files.readString(addressFile, StandardCharsets.UTF_8);
            try (ProtocolClient admin = new ProtocolClient(address)) {
                RemotingCommand created = admin.invoke(RequestCode.UPDATE_AND_CREATE_TOPIC,
                        new CreateTopicRequest(TOPIC, 2, 2, TopicPerm.READ | TopicPerm.WRITE, 0, false));
                assertThat(created.code()).as(created.remark()).isEqualTo(ResponseCode.SUCCESS);
            }
            expected = exercise(address);
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
        Broker restarted = BrokerFixture.start(store);
        try {
            assertThat(drain(restarted.address())).isEqualTo(expected);
        } finally {
            restarted.shutdown();
        }
    }
}
