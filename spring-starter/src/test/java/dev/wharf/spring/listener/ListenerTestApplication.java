package dev.wharf.spring.listener;

import dev.wharf.common.message.MessageExt;
import dev.wharf.spring.annotation.ConsumeFromWhere;
import dev.wharf.spring.annotation.ConsumeMode;
import dev.wharf.spring.annotation.MessageListener;
import dev.wharf.spring.annotation.MessageModel;
import dev.wharf.spring.annotation.SelectorType;
import dev.wharf.spring.core.WharfTemplate;
import dev.wharf.spring.listener.readme.Shop;
import dev.wharf.spring.support.WharfHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.transaction.annotation.Transactional;

/** An application with {@code @MessageListener} methods of several kinds, for the end-to-end tests. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ ListenerTestApplication.Listeners.class, ListenerTestApplication.Orders.class, Shop.class })
class ListenerTestApplication {

    /** A JSON payload. */
    record Order(long id, String item, int quantity) {
    }

    /** One step of a key's sequence, for the ordering check. */
    record Step(String key, int seq) {
    }

    /** What a listener saw: listener, body, headers of interest. */
    record Seen(String listener, String body, Map<String, Object> details) {
    }

    /** Several listeners in one bean; each records what it receives. */
    static class Listeners {

        final List<Seen> seen = new CopyOnWriteArrayList<>();
        final Map<String, List<Integer>> steps = new ConcurrentHashMap<>();
        final List<Integer> failedAttempts = new CopyOnWriteArrayList<>();
        final List<String> broadcasts = new CopyOnWriteArrayList<>();

        @MessageListener(topic = "${test.topic-prefix}-orders", consumerGroup = "e2e-json")
        void onOrder(Order order, @Header(name = WharfHeaders.KEYS, required = false) String keys,
                     @Header(name = WharfHeaders.TAGS, required = false) String tag,
                     @Header(name = "region", defaultValue = "none") String region,
                     @Header(WharfHeaders.MESSAGE_ID) String msgId,
                     @Header(WharfHeaders.QUEUE_ID) int queueId,
                     @Header(WharfHeaders.BORN_TIMESTAMP) long born) {
            Map<String, Object> details = new java.util.HashMap<>(Map.of("order", order, "region", region,
                    "msgId", msgId, "queueId", queueId, "born", born));
            if (keys != null) {
                details.put("keys", keys);
            }
            if (tag != null) {
                details.put("tag", tag);
            }
            seen.add(new Seen("json", order.item(), details));
        }

        @MessageListener(topic = "e2e-colors", consumerGroup = "e2e-tag-filter", selectorExpression = "red || blue")
        void onTagged(String body, @Header(WharfHeaders.TAGS) String tag) {
            seen.add(new Seen("tag", body, Map.of("tag", tag)));
        }

        @MessageListener(topic = "e2e-colors", consumerGroup = "e2e-sql-filter", selectorType = SelectorType.SQL92,
                selectorExpression = "weight > 10 AND shade = 'dark'")
        void onSelected(MessageExt message) {
            seen.add(new Seen("sql", new String(message.getBody(), StandardCharsets.UTF_8),
                    Map.of("weight", message.getProperty("weight"))));
        }

        @MessageListener(topic = "e2e-failing", consumerGroup = "e2e-dlq", maxReconsumeTimes = 2,
                delayLevelWhenNextConsume = 1)
        void alwaysFails(String body, @Header(WharfHeaders.RECONSUME_TIMES) int reconsumeTimes) {
            failedAttempts.add(reconsumeTimes);
            throw new IllegalStateException("cannot handle " + body);
        }

        @MessageListener(topic = "%DLQ%e2e-dlq", consumerGroup = "e2e-dlq-reader",
                consumeFromWhere = ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET)
        void onDeadLetter(byte[] body) {
            seen.add(new Seen("dlq", new String(body, StandardCharsets.UTF_8), Map.of()));
        }

        @MessageListener(topic = "e2e-requests", consumerGroup = "e2e-replier")
        Order reply(String question) {
            return new Order(42, "re: " + question, 1);
        }

        @MessageListener(topic = "e2e-ordered", consumerGroup = "e2e-orderly", consumeMode = ConsumeMode.ORDERLY,
                consumeThreads = 4)
        void onStep(Step step) {
            steps.computeIfAbsent(step.key(), k -> new CopyOnWriteArrayList<>()).add(step.seq());
        }

        @MessageListener(topic = "e2e-broadcast", consumerGroup = "e2e-broadcast",
                messageModel = MessageModel.BROADCASTING)
        void onBroadcast(String body) {
            broadcasts.add(body);
        }

        @MessageListener(id = "history", topic = "e2e-history", consumerGroup = "e2e-history", autoStartup = "false",
                consumeFromWhere = ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET)
        void onHistory(String body) {
            seen.add(new Seen("history", body, Map.of()));
        }

        @MessageListener(topic = "e2e-tx", consumerGroup = "e2e-tx-native")
        @MessageListener(topic = "e2e-tx-jms", consumerGroup = "e2e-tx-jms-reader")
        void onTransactional(String body, @Header(WharfHeaders.TOPIC) String topic) {
            seen.add(new Seen("tx", body, Map.of("topic", topic)));
        }

        List<String> bodies(String listener) {
            return seen.stream().filter(s -> s.listener().equals(listener)).map(Seen::body).toList();
        }
    }

    /** Orders written to the database and announced through WharfTemplate and JmsTemplate in one transaction. */
    static class Orders {

        private final JdbcTemplate jdbc;
        private final WharfTemplate wharf;
        private final JmsTemplate jms;

        Orders(JdbcTemplate jdbc, WharfTemplate wharf, JmsTemplate jms) {
            this.jdbc = jdbc;
            this.wharf = wharf;
            this.jms = jms;
        }

        @Transactional
        public void place(long id, boolean fail) {
            jdbc.update("INSERT INTO orders (id, item) VALUES (?, ?)", id, "item " + id);
            wharf.syncSendOrderly("e2e-tx:created", "order " + id + " via wharf, keyed", "order-" + id);
            wharf.syncSend("e2e-tx-jms", "order " + id + " via wharf");
            jms.convertAndSend("e2e-tx-jms", "order " + id + " via jms");
            if (fail) {
                throw new IllegalStateException("payment declined for order " + id);
            }
        }
    }
}
