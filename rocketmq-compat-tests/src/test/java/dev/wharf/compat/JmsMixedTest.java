package dev.wharf.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.testing.TestWharf;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A RocketMQ producer feeds a JMS consumer, and a JMS producer feeds a RocketMQ push consumer. */
class JmsMixedTest {

    @TempDir
    static Path dir;

    private static TestWharf servers;
    private RocketClients clients;
    private Connection connection;

    @BeforeAll
    static void startServers() throws Exception {
        servers = WharfServers.start(dir);
    }

    @AfterAll
    static void stopServers() {
        servers.close();
    }

    @BeforeEach
    void clients() throws Exception {
        clients = new RocketClients(servers.namesrvAddr());
        connection = new WharfConnectionFactory("wharf://" + servers.namesrvAddr()).createConnection();
        connection.start();
    }

    @AfterEach
    void closeClients() throws Exception {
        connection.close();
        clients.close();
    }

    @Test
    void aRocketMqMessageReachesAJmsQueueConsumerWithItsBodyAndProperties() throws Exception {
        DefaultMQProducer producer = clients.producer("mixed-pg");
        byte[] large = Bodies.text(10 * 1024, 7);
        Message small = new Message("MixedToJms", "TagA", "key-1", "hello jms".getBytes(StandardCharsets.UTF_8));
        small.putUserProperty("n", "1");
        small.putUserProperty("color", "blue");
        String smallId = producer.send(small).getMsgId();
        Message compressed = new Message("MixedToJms", "TagB", "key-2", large);
        compressed.putUserProperty("n", "2");
        producer.send(compressed);

        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue("MixedToJms"));
        Map<String, jakarta.jms.Message> got = new ConcurrentHashMap<>();
        Map<String, byte[]> bodies = new ConcurrentHashMap<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            jakarta.jms.Message m = consumer.receive(1_000);
            if (m != null) {
                got.put(m.getStringProperty("n"), m);
                bodies.put(m.getStringProperty("n"), body(m));
            }
            return got.size() >= 2;
        });
        assertThat(bodies.get("1")).isEqualTo("hello jms".getBytes(StandardCharsets.UTF_8));
        assertThat(bodies.get("2")).as("compressed by the RocketMQ client").isEqualTo(large);
        // tags are the JMSType, the unique id the JMSMessageID; user properties keep their names
        assertThat(got.get("1").getJMSType()).isEqualTo("TagA");
        assertThat(got.get("2").getJMSType()).isEqualTo("TagB");
        assertThat(got.get("1").getJMSMessageID()).isEqualTo("ID:" + smallId);
        assertThat(got.get("1").getStringProperty("color")).isEqualTo("blue");
        assertThat(got.get("1")).as("a body without a JMS body type").isInstanceOf(BytesMessage.class);
    }

    private static byte[] body(jakarta.jms.Message m) throws Exception {
        if (m instanceof BytesMessage bytes) {
            byte[] out = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(out);
            return out;
        }
        if (m instanceof TextMessage text) {
            return text.getText().getBytes(StandardCharsets.UTF_8);
        }
        return m.getBody(byte[].class);
    }

    @Test
    void aJmsTextMessageReachesARocketMqPushConsumer() throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("JmsToMixed");
        MessageProducer producer = session.createProducer(queue);
        TextMessage text = session.createTextMessage("hello rocketmq");
        text.setStringProperty("color", "green");
        producer.send(text);

        Map<String, MessageExt> got = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer("mixed-cg");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("JmsToMixed", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> got.put(m.getMsgId(), m));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> !got.isEmpty());
        MessageExt m = got.values().iterator().next();
        assertThat(new String(m.getBody(), StandardCharsets.UTF_8)).isEqualTo("hello rocketmq");
        assertThat(m.getUserProperty("color")).isEqualTo("green");
    }
}
