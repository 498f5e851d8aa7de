package dev.wharf.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.spring.annotation.ConsumeFromWhere;
import dev.wharf.spring.annotation.ConsumeMode;
import dev.wharf.spring.annotation.MessageListener;
import dev.wharf.spring.annotation.MessageModel;
import dev.wharf.spring.annotation.SelectorType;
import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import dev.wharf.spring.boot.autoconfigure.WharfMessagingAutoConfiguration;
import dev.wharf.spring.boot.autoconfigure.WharfProperties;
import dev.wharf.spring.core.WharfTemplate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.handler.annotation.Header;

/**
 * Registration and start-up checks of {@code @MessageListener}, without a broker: the listeners do not auto-start,
 * and a wrong attribute stops the context before anything connects.
 */
class MessageListenerRegistrationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WharfMessagingAutoConfiguration.class))
            .withUserConfiguration(NoBroker.class)
            .withPropertyValues("app.topic=orders", "app.group=billing", "app.start=false");

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(WharfProperties.class)
    static class NoBroker {
        @Bean
        WharfConnectionDetails wharfConnectionDetails() {
            // nothing listens there: the tests never start a consumer
            return new WharfConnectionDetails("wharf://127.0.0.1:1", null);
        }
    }

    static class Listeners {
        @MessageListener(topic = "${app.topic}", consumerGroup = "${app.group}", autoStartup = "${app.start}")
        void orders(String body) {
        }

        @MessageListener(id = "audit-a", topic = "audit", consumerGroup = "audit-a", autoStartup = "false",
                selectorType = SelectorType.SQL92, selectorExpression = "amount > ${app.limit:100}")
        @MessageListener(id = "audit-b", topic = "audit", consumerGroup = "audit-b", autoStartup = "false",
                messageModel = MessageModel.BROADCASTING)
        void audit(byte[] body, @Header("region") String region) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ListenersConfig {
        @Bean
        Listeners listeners() {
            return new Listeners();
        }
    }

    @Test
    void everyAnnotationOfEveryMethodBecomesAContainerWithItsPlaceholdersResolved() {
        runner.withUserConfiguration(ListenersConfig.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(WharfTemplate.class);
            MessageListenerRegistry registry = context.getBean(MessageListenerRegistry.class);
            assertThat(registry.states()).containsOnlyKeys("listeners#orders", "audit-a", "audit-b")
                    .containsValue("CREATED");
            ListenerEndpoint orders = registry.getContainer("listeners#orders").endpoint();
            assertThat(orders.topic()).isEqualTo("orders");
            assertThat(orders.consumerGroup()).isEqualTo("billing");
            assertThat(orders.autoStartup()).isFalse();
            assertThat(registry.getContainer("audit-a").endpoint().selector().expression()).isEqualTo("amount > 100");
            assertThat(registry.getContainer("audit-b").endpoint().messageModel()).isEqualTo(MessageModel.BROADCASTING);
            assertThat(registry.getContainer("audit-b").isRunning()).isFalse();
        });
    }

    static class LazyListener {
        @MessageListener(topic = "late", consumerGroup = "late", autoStartup = "false")
        void onMessage(String body) {
        }
    }

    @Test
    void aBeanCreatedAfterStartUpRegistersItsListenersThen() {
        runner.withBean("lazyListener", LazyListener.class, LazyListener::new, bd -> bd.setLazyInit(true)).run(context -> {
            MessageListenerRegistry registry = context.getBean(MessageListenerRegistry.class);
            assertThat(registry.states()).doesNotContainKey("lazyListener#onMessage");
            context.getBean(LazyListener.class);
            assertThat(registry.states()).containsEntry("lazyListener#onMessage", "CREATED");
        });
    }

    // ------------------------------------------------------------------ refused definitions

    static class OrderlyBroadcast {
        @MessageListener(topic = "t", consumerGroup = "g", consumeMode = ConsumeMode.ORDERLY,
                messageModel = MessageModel.BROADCASTING)
        void onMessage(String body) {
        }
    }

    static class BadSql {
        @MessageListener(topic = "t", consumerGroup = "g", selectorType = SelectorType.SQL92,
                selectorExpression = "amount >> 10 AND")
        void onMessage(String body) {
        }
    }

    static class UnknownConverter {
        @MessageListener(topic = "t", consumerGroup = "g", messageConverter = "protobufConverter")
        void onMessage(String body) {
        }
    }

    static class MissingPlaceholder {
        @MessageListener(topic = "${missing.topic}", consumerGroup = "g")
        void onMessage(String body) {
        }
    }

    static class DelayedOrderly {
        @MessageListener(topic = "t", consumerGroup = "g", consumeMode = ConsumeMode.ORDERLY,
                delayLevelWhenNextConsume = 2)
        void onMessage(String body) {
        }
    }

    static class TimestampWithoutTimestampStart {
        @MessageListener(topic = "t", consumerGroup = "g", consumeTimestamp = "2026-01-31T08:00:00Z",
                consumeFromWhere = ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET)
        void onMessage(String body) {
        }
    }

    static class TwoPayloads {
        @MessageListener(topic = "t", consumerGroup = "g")
        void onMessage(String body, String other) {
        }
    }

    static class SameGroupTwice {
        @MessageListener(topic = "t", consumerGroup = "g")
        void first(String body) {
        }

        @MessageListener(topic = "u", consumerGroup = "g")
        void second(String body) {
        }
    }

    static class BadTopic {
        @MessageListener(topic = "orders/eu", consumerGroup = "g")
        void onMessage(String body) {
        }
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(OrderlyBroadcast.class, "consumeMode = ORDERLY", "BROADCASTING"),
                Arguments.of(BadSql.class, "selectorExpression = \"amount >> 10 AND\"", "SQL92"),
                Arguments.of(UnknownConverter.class, "messageConverter = \"protobufConverter\"",
                        "no MessageConverter bean"),
                Arguments.of(MissingPlaceholder.class, "topic = \"${missing.topic}\"", "missing.topic"),
                Arguments.of(DelayedOrderly.class, "delayLevelWhenNextConsume = 2", "ORDERLY retries in place"),
                Arguments.of(TimestampWithoutTimestampStart.class, "consumeTimestamp", "CONSUME_FROM_TIMESTAMP"),
                Arguments.of(TwoPayloads.class, "parameter other", "two payload parameters"),
                Arguments.of(SameGroupTwice.class, "consumerGroup = \"g\"", "already consumed by"),
                Arguments.of(BadTopic.class, "topic = \"orders/eu\"", "orders/eu"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void aWrongDefinitionStopsStartUpNamingBeanMethodAndAttribute(Class<?> listener, String attribute, String why) {
        runner.withBean("wrong", listener).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            while (failure.getCause() != null && !(failure instanceof ListenerDefinitionException)) {
                failure = failure.getCause();
            }
            assertThat(failure).isInstanceOf(ListenerDefinitionException.class);
            assertThat(failure.getMessage()).contains("@MessageListener on " + listener.getSimpleName() + ".")
                    .contains("of bean 'wrong'").contains(attribute).contains(why);
        });
    }
}
