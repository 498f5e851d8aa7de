package dev.wharf.spring.listener.readme;

import dev.wharf.client.producer.SendResult;
import dev.wharf.spring.annotation.ConsumeMode;
import dev.wharf.spring.annotation.MessageListener;
import dev.wharf.spring.annotation.MessageModel;
import dev.wharf.spring.annotation.SelectorType;
import dev.wharf.spring.core.WharfTemplate;
import dev.wharf.spring.support.WharfHeaders;
import java.time.Duration;
import java.util.Map;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

@Component
public class Shop {

    public record OrderStep(long orderId, String step) {
    }

    private final WharfTemplate wharf;

    public Shop(WharfTemplate wharf) {
        this.wharf = wharf;
    }

    // each order's steps in the order they were sent (the sharding key keeps an order on one queue)
    @MessageListener(topic = "order-steps", consumerGroup = "fulfilment", consumeMode = ConsumeMode.ORDERLY)
    void onStep(OrderStep step, @Header(WharfHeaders.RECONSUME_TIMES) int retries) {
        System.out.println("order " + step.orderId() + ": " + step.step() + " (retry " + retries + ")");
    }

    // every instance of the application gets every update
    @MessageListener(topic = "prices", consumerGroup = "price-cache", messageModel = MessageModel.BROADCASTING)
    void onPrice(String update) {
        System.out.println("price " + update);
    }

    // two listeners on one method: by tag, and by SQL92 with at most 3 retries 1 s apart, then %DLQ%audit-big
    @MessageListener(topic = "${app.topic:payments}", consumerGroup = "audit-eu", selectorExpression = "eu || uk")
    @MessageListener(topic = "${app.topic:payments}", consumerGroup = "audit-big", selectorType = SelectorType.SQL92,
            selectorExpression = "amount > 1000", maxReconsumeTimes = 3, delayLevelWhenNextConsume = 1)
    void audit(byte[] body, @Header(name = WharfHeaders.TAGS, required = false) String region) {
        System.out.println("payment of " + body.length + " bytes from " + region);
    }

    // the return value answers a request (WharfTemplate.sendAndReceive or JmsTemplate.sendAndReceive)
    @MessageListener(topic = "stock-queries", consumerGroup = "stock")
    int stock(String item) {
        return item.length();
    }

    @Transactional // the sends commit with the database transaction, or not at all
    public void advance(long orderId, String step) {
        wharf.syncSendOrderly("order-steps", new OrderStep(orderId, step), Long.toString(orderId));
    }

    public void examples() {
        wharf.syncSend("prices:eu", "kettle 24.99"); // topic:tag
        SendResult sent = wharf.syncSend("payments:uk", "{\"amount\":1200}",
                Map.of(WharfHeaders.KEYS, "order-7", "amount", 1200));
        wharf.syncSendDelayTimeMs("reminders", "pay order 7", 30_000);
        wharf.asyncSend("prices", "teapot 18.99").thenAccept(r -> System.out.println("stored " + r.msgId()));
        Integer stock = wharf.sendAndReceive("stock-queries", "kettle", Integer.class, Duration.ofSeconds(5));
        System.out.println(sent.msgId() + ": " + stock + " kettles");
    }
}
