package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.message.MessageExt;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.vm.VmBrokerRegistry;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Sending: the headers a send sets, settings and their refusals, and the queue choice behind ordering (7, 3.4). */
class ProducerTest {

    private static final VmNames VM = new VmNames("producer");
    private static String url;
    private static String namesrv;

    @BeforeAll
    static void broker() throws Exception {
        url = VM.url("?defaultTopicQueueNums=4");
        new WharfConnectionFactory(url).createConnection().close();
        namesrv = VmBrokerRegistry.shared().acquire(new WharfConnectionFactory(url).getConfig()).namesrvAddr();
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    @Test
    void aSendSetsTheHeadersOnTheApplicationsMessage() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("producer-headers");
            MessageProducer p = s.createProducer(q);
            p.setPriority(7);
            p.setTimeToLive(60_000);
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            TextMessage m = s.createTextMessage("hello");
            long before = System.currentTimeMillis();
            p.send(m);
            long after = System.currentTimeMillis();
            assertThat(m.getJMSMessageID()).startsWith("ID:");
            assertThat(m.getJMSDestination()).isEqualTo(q);
            assertThat(m.getJMSPriority()).isEqualTo(7);
            assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
            assertThat(m.getJMSTimestamp()).isBetween(before, after);
            assertThat(m.getJMSExpiration()).isEqualTo(m.getJMSTimestamp() + 60_000);
            assertThat(m.getJMSDeliveryTime()).isEqualTo(m.getJMSTimestamp());

            p.send(m, DeliveryMode.PERSISTENT, 2, 0);
            assertThat(m.getJMSPriority()).isEqualTo(2);
            assertThat(m.getJMSExpiration()).isZero();
            assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);

            p.setDisableMessageID(true);
            p.setDisableMessageTimestamp(true);
            p.send(m);
            assertThat(m.getJMSMessageID()).isNull();
            assertThat(m.getJMSTimestamp()).isZero();

            List<MessageExt> stored = Stored.read(namesrv, "producer-headers", 3);
            assertThat(stored).hasSize(3);
            assertThat(stored.get(0).getProperty("JMSPriority")).isNotNull();
            assertThat(new String(stored.get(0).getBody())).isEqualTo("hello");
        }
    }

    @Test
    void badArgumentsAreRefusedWithTheExceptionsTheSpecificationNames() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("producer-refusals");
            MessageProducer p = s.createProducer(q);
            assertThatThrownBy(() -> p.setPriority(10)).isInstanceOf(JMSException.class).hasMessageContaining("0");
            assertThatThrownBy(() -> p.setDeliveryMode(3)).isInstanceOf(JMSException.class)
                    .hasMessageContaining("PERSISTENT");
            assertThatThrownBy(() -> p.setTimeToLive(-1)).isInstanceOf(JMSException.class);
            assertThatThrownBy(() -> p.setDeliveryDelay(-1)).isInstanceOf(JMSException.class);
            assertThatThrownBy(() -> p.send(null)).isInstanceOf(MessageFormatException.class);
            assertThatThrownBy(() -> p.send(q, s.createMessage())).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> p.send(s.createMessage(), null)).isInstanceOf(IllegalArgumentException.class);
            MessageProducer anonymous = s.createProducer(null);
            assertThatThrownBy(() -> anonymous.send(s.createMessage()))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> anonymous.send(null, s.createMessage()))
                    .isInstanceOf(InvalidDestinationException.class);
            anonymous.send(q, s.createTextMessage("via anonymous"));
            p.close();
            p.close();
            assertThatThrownBy(() -> p.send(s.createMessage())).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("producer is closed");
            assertThatThrownBy(p::getDestination).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aSessionsMessagesToOneDestinationGoToOneQueueInSendOrder() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session first = c.createSession();
            Queue q = first.createQueue("producer-order");
            MessageProducer p = first.createProducer(q);
            p.send(first.createTextMessage("create the topic"));
            for (int i = 0; i < 40; i++) {
                p.send(first.createTextMessage("m" + i));
            }
            List<MessageExt> stored = Stored.read(namesrv, "producer-order", 41);
            Set<Integer> queues = stored.stream().map(MessageExt::getQueueId).collect(Collectors.toSet());
            assertThat(queues).as("one session, one destination: one queue").hasSize(1);
            List<String> bodies = new ArrayList<>();
            stored.forEach(m -> bodies.add(new String(m.getBody())));
            assertThat(bodies.subList(1, 41)).isEqualTo(java.util.stream.IntStream.range(0, 40)
                    .mapToObj(i -> "m" + i).toList());
        }
    }

    @Test
    void aMessageGroupGoesToOneQueueWhateverSessionSendsIt() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session warmUp = c.createSession();
            Queue q = warmUp.createQueue("producer-groups");
            warmUp.createProducer(q).send(warmUp.createMessage());
            // group pinning needs the topic's queues; a topic created a moment ago is routed once the NameServer
            // knows it (what Stored.read waits for)
            Stored.read(namesrv, "producer-groups", 1);
            for (int session = 0; session < 6; session++) {
                Session s = c.createSession();
                MessageProducer p = s.createProducer(q);
                for (String group : List.of("alpha", "beta", "gamma")) {
                    Message m = s.createTextMessage(group);
                    m.setStringProperty("JMSXGroupID", group);
                    p.send(m);
                }
                s.close();
            }
            List<MessageExt> stored = Stored.read(namesrv, "producer-groups", 19);
            for (String group : List.of("alpha", "beta", "gamma")) {
                Set<Integer> queues = stored.stream().filter(m -> group.equals(m.getProperty("JMSXGroupID")))
                        .map(MessageExt::getQueueId).collect(Collectors.toSet());
                assertThat(queues).as("queues of group " + group).hasSize(1);
            }
        }
    }

    @Test
    void sendsToAnUnknownTopicFailWhenTheBrokerDoesNotCreateTopics() throws Exception {
        String strict = VM.url("?autoCreateTopicEnable=false");
        try (Connection c = new WharfConnectionFactory(strict).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("producer-unknown"));
            assertThatThrownBy(() -> p.send(s.createTextMessage("x"))).isInstanceOf(InvalidDestinationException.class)
                    .hasMessageContaining("producer-unknown");
        }
    }

    @Test
    void aMessageTooLargeForTheBrokerIsAFormatError() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("producer-large"));
            jakarta.jms.BytesMessage big = s.createBytesMessage();
            big.writeBytes(new byte[5 * 1024 * 1024]);
            assertThatThrownBy(() -> p.send(big)).isInstanceOf(MessageFormatException.class)
                    .hasMessageContaining("bytes");
        }
    }
}
