package dev.wharf.jms.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import javax.naming.Reference;
import org.junit.jupiter.api.Test;

/** Destination names, identity, URIs, foreign destinations, serialization and temporary deletion. */
class DestinationsTest {

    @Test
    void namesAreValidatedWithTheBrokersRules() {
        assertThatThrownBy(() -> new WharfQueue("a b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Queue \"a b\" cannot be used").hasMessageContaining("position 2");
        assertThatThrownBy(() -> WharfTopic.of("")).isInstanceOf(InvalidDestinationException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> WharfQueue.of(null)).isInstanceOf(InvalidDestinationException.class)
                .hasMessageContaining("null");
        assertThatThrownBy(() -> WharfQueue.of("x".repeat(128))).isInstanceOf(InvalidDestinationException.class)
                .hasMessageContaining("127");
        assertThatThrownBy(() -> WharfTopic.of("SCHEDULE_TOPIC_XXXX")).isInstanceOf(InvalidDestinationException.class)
                .hasMessageContaining("internal topic");
        assertThatThrownBy(() -> new WharfTemporaryQueue("a/b", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Temporary queue");
    }

    @Test
    void theDeadLetterQueueIsAnOrdinaryQueueName() throws JMSException {
        assertThat(WharfQueue.of("%DLQ%orders-group").getQueueName()).isEqualTo("%DLQ%orders-group");
    }

    @Test
    void equalityIsKindAndName() {
        assertThat(new WharfQueue("a")).isEqualTo(new WharfQueue("a")).hasSameHashCodeAs(new WharfQueue("a"))
                .isNotEqualTo(new WharfQueue("b")).isNotEqualTo(new WharfTopic("a"))
                .isNotEqualTo(new WharfTemporaryQueue("a", null));
        assertThat(new WharfTemporaryTopic("t", null)).isEqualTo(new WharfTemporaryTopic("t", d -> { }));
        assertThat(new WharfQueue("a").toString()).isEqualTo("queue://a");
        assertThat(new WharfTopic("a").toString()).isEqualTo("topic://a");
        assertThat(new WharfTemporaryQueue("a", null).toString()).isEqualTo("temp-queue://a");
        assertThat(new WharfTemporaryTopic("a", null).toString()).isEqualTo("temp-topic://a");
    }

    @Test
    void urisParseBack() throws JMSException {
        for (WharfDestination d : List.of(new WharfQueue("q.1"), new WharfTopic("t-1"),
                new WharfTemporaryQueue("TMP_1", null), new WharfTemporaryTopic("TMP_2", null))) {
            assertThat(Destinations.fromUri(d.toUri())).isEqualTo(d);
        }
        for (String bad : new String[] {"q", "queue:/q", "fifo://q", "", null}) {
            assertThatThrownBy(() -> Destinations.fromUri(bad)).as(String.valueOf(bad))
                    .isInstanceOf(InvalidDestinationException.class).hasMessageContaining("queue://name");
        }
        assertThatThrownBy(() -> Destinations.fromUri("queue://a b")).isInstanceOf(InvalidDestinationException.class);
    }

    @Test
    void foreignDestinationsConvertByName() throws JMSException {
        assertThat(Destinations.toWharf(foreign(Queue.class, "q"))).isEqualTo(new WharfQueue("q"));
        assertThat(Destinations.toWharf(foreign(Topic.class, "t"))).isEqualTo(new WharfTopic("t"));
        assertThat(Destinations.toWharf(foreign(TemporaryTopic.class, "tt")))
                .isEqualTo(new WharfTemporaryTopic("tt", null));
        WharfQueue own = new WharfQueue("own");
        assertThat(Destinations.toWharf(own)).isSameAs(own);
        assertThat(Destinations.toWharf(null)).isNull();
        assertThatThrownBy(() -> Destinations.toWharf(foreign(Destination.class, "x")))
                .isInstanceOf(InvalidDestinationException.class).hasMessageContaining("neither a Queue nor a Topic");
        assertThatThrownBy(() -> Destinations.toWharf(foreign(Queue.class, "jms.queue/x")))
                .isInstanceOf(InvalidDestinationException.class);
    }

    private static <T extends Destination> T foreign(Class<T> type, String name) {
        return type.cast(Proxy.newProxyInstance(DestinationsTest.class.getClassLoader(), new Class<?>[] {type},
                (p, m, a) -> switch (m.getName()) {
            case "getQueueName", "getTopicName", "toString" -> name;
            case "hashCode" -> 1;
            case "equals" -> false;
            default -> null;
        }));
    }

    @Test
    void destinationsSerializeAndTemporaryOnesLoseTheirDeleter() throws Exception {
        List<WharfDestination> deleted = new ArrayList<>();
        WharfTemporaryQueue temp = new WharfTemporaryQueue("TMP_9", deleted::add);
        for (WharfDestination d : List.of(new WharfQueue("q"), new WharfTopic("t"), temp)) {
            assertThat(roundTrip(d)).isEqualTo(d);
        }
        WharfTemporaryQueue copy = (WharfTemporaryQueue) roundTrip(temp);
        assertThatThrownBy(copy::delete).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("only the connection that created it");
        assertThat(copy.isCreatedBy(deleted::add)).isFalse();
        temp.delete();
        assertThat(deleted).containsExactly(temp);
    }

    @Test
    void aTamperedSerialFormIsRefused() throws Exception {
        WharfQueue q = new WharfQueue("good");
        Field name = WharfDestination.class.getDeclaredField("name");
        name.setAccessible(true);
        name.set(q, "bad name");
        assertThatThrownBy(() -> roundTrip(q)).isInstanceOf(InvalidObjectException.class);
    }

    @Test
    void deletingDelegatesOnceAndPassesRefusalsOn() throws JMSException {
        List<WharfDestination> calls = new ArrayList<>();
        TemporaryDestinationDeleter deleter = calls::add;
        WharfTemporaryTopic t = new WharfTemporaryTopic("TMP_t", deleter);
        assertThat(t.isCreatedBy(deleter)).isTrue();
        t.delete();
        t.delete();
        assertThat(calls).hasSize(1);
        assertThat(t.isDeleted()).isTrue();
        WharfTemporaryQueue busy = new WharfTemporaryQueue("TMP_q", d -> {
            throw new JMSException("The temporary queue still has consumers; close them before deleting it.");
        });
        assertThatThrownBy(busy::delete).isInstanceOf(JMSException.class).hasMessageContaining("consumers");
        assertThat(busy.isDeleted()).isFalse();
    }

    @Test
    void temporaryNamesAreValidAndUnique() {
        String a = Destinations.newTemporaryName();
        String b = Destinations.newTemporaryName();
        assertThat(a).isNotEqualTo(b).startsWith("TMP_");
        assertThat(new WharfTemporaryQueue(a, null).getQueueName()).isEqualTo(a);
    }

    @Test
    void referencesNameTheObjectFactory() {
        Reference ref = new WharfTopic("t").getReference();
        assertThat(ref.getClassName()).isEqualTo(WharfTopic.class.getName());
        assertThat(ref.getFactoryClassName()).isEqualTo("dev.wharf.jms.jndi.WharfObjectFactory");
        assertThat(ref.get("name").getContent()).isEqualTo("t");
        assertThat(DestinationKind.ofScheme("temp-topic")).isEqualTo(DestinationKind.TEMPORARY_TOPIC);
        assertThat(DestinationKind.TEMPORARY_QUEUE.isQueue()).isTrue();
        assertThat(DestinationKind.TOPIC.isTemporary()).isFalse();
    }

    private static Object roundTrip(Object o) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }
}
