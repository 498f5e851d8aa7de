package dev.wharf.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.protocol.body.ConsumerModel;
import dev.wharf.spring.annotation.ConsumeFromWhere;
import dev.wharf.spring.annotation.ConsumeMode;
import dev.wharf.spring.annotation.MessageListener;
import dev.wharf.spring.annotation.MessageModel;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Every attribute reaches the push consumer a container builds (those whose effect takes minutes, such as
 * consumeTimeout, or a start time, are checked here rather than end to end).
 */
class ListenerContainerTest {

    static class Listeners {
        @MessageListener(topic = "t", consumerGroup = "g", consumeThreads = 3, consumeTimeout = 4,
                maxReconsumeTimes = 5, consumeFromWhere = ConsumeFromWhere.CONSUME_FROM_TIMESTAMP,
                consumeTimestamp = "2026-01-31T08:00:00Z")
        void concurrently(String body) {
        }

        @MessageListener(topic = "t", consumerGroup = "g", consumeMode = ConsumeMode.ORDERLY,
                consumeFromWhere = ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET)
        void orderly(String body) {
        }

        @MessageListener(topic = "t", consumerGroup = "g", messageModel = MessageModel.BROADCASTING,
                consumeFromWhere = ConsumeFromWhere.CONSUME_FROM_TIMESTAMP, consumeTimestamp = "20260131080000")
        void broadcast(String body) {
        }
    }

    private static PushConsumer consumerOf(String methodName) throws Exception {
        Method method = Listeners.class.getDeclaredMethod(methodName, String.class);
        ListenerEndpoint endpoint = new ListenerDefinitions(s -> s, name -> true)
                .define("listeners", method, method.getAnnotation(MessageListener.class), 0, "converter");
        ListenerInvoker invoker = new ListenerInvoker(endpoint, null, null, null, ObservationRegistry.NOOP);
        ListenerContainer container = new ListenerContainer(invoker, ClientConfig::new, Duration.ofSeconds(7),
                Path.of("offsets"), new TopicCreator(ClientConfig::new, 8));
        return container.createConsumer();
    }

    @Test
    void concurrentAttributesReachTheConsumer() throws Exception {
        PushConsumer c = consumerOf("concurrently");
        assertThat(c.getConsumerGroup()).isEqualTo("g");
        assertThat(c.getConsumeThreadMin()).isEqualTo(3);
        assertThat(c.getConsumeThreadMax()).isEqualTo(3);
        assertThat(c.getConsumeTimeout()).isEqualTo(4);
        assertThat(c.getMaxReconsumeTimes()).isEqualTo(5);
        assertThat(c.getConsumeFromWhere()).isEqualTo(ConsumerModel.ConsumeFromWhere.CONSUME_FROM_TIMESTAMP);
        assertThat(c.getConsumeTimestamp()).isEqualTo(Instant.parse("2026-01-31T08:00:00Z").toEpochMilli());
        assertThat(c.getMessageModel()).isEqualTo(ConsumerModel.MessageModel.CLUSTERING);
        assertThat(c.getConsumeMessageBatchMaxSize()).isEqualTo(1);
        assertThat(c.getAwaitTerminationMillisWhenShutdown()).isEqualTo(7_000);
        assertThat(c.getOffsetStoreDir()).isEqualTo(Path.of("offsets"));
    }

    @Test
    void defaultsAreTheClientsAndTheStartPositionIsKept() throws Exception {
        PushConsumer c = consumerOf("orderly");
        PushConsumer plain = new PushConsumer("g");
        assertThat(c.getConsumeTimeout()).isEqualTo(plain.getConsumeTimeout());
        assertThat(c.getMaxReconsumeTimes()).isEqualTo(plain.getMaxReconsumeTimes());
        assertThat(c.getConsumeThreadMax()).isEqualTo(20);
        assertThat(c.getConsumeFromWhere()).isEqualTo(ConsumerModel.ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    }

    @Test
    void broadcastingAndACompactTimestamp() throws Exception {
        PushConsumer c = consumerOf("broadcast");
        assertThat(c.getMessageModel()).isEqualTo(ConsumerModel.MessageModel.BROADCASTING);
        assertThat(c.getConsumeTimestamp()).isEqualTo(java.time.LocalDateTime.of(2026, 1, 31, 8, 0)
                .atZone(java.time.ZoneId.systemDefault()).toInstant().toEpochMilli());
    }
}
