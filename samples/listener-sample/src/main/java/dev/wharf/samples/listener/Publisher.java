package dev.wharf.samples.listener;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.TextMessage;
import java.util.Map;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Component;

/**
 * Sends the sample's messages, each tagged with the run's id: to queues with Boot's JmsTemplate, to topics with a
 * template of the same factory set to publish-subscribe (a second JmsTemplate bean would replace Boot's, so this
 * one is not a bean).
 */
@Component
public class Publisher {

    private final JmsTemplate queues;
    private final JmsTemplate topics;
    private final Deliveries deliveries;

    public Publisher(JmsTemplate jmsTemplate, ConnectionFactory connectionFactory, Deliveries deliveries) {
        this.queues = jmsTemplate;
        this.topics = new JmsTemplate(connectionFactory);
        this.topics.setPubSubDomain(true);
        this.deliveries = deliveries;
    }

    void toQueue(String queue, String body, Map<String, String> properties) {
        send(queues, queue, body, properties);
    }

    void toTopic(String topic, String body, Map<String, String> properties) {
        send(topics, topic, body, properties);
    }

    private void send(JmsTemplate template, String destination, String body, Map<String, String> properties) {
        template.send(destination, session -> {
            TextMessage m = session.createTextMessage(body);
            m.setStringProperty(Deliveries.RUN_PROPERTY, deliveries.runId());
            for (Map.Entry<String, String> p : properties.entrySet()) {
                m.setStringProperty(p.getKey(), p.getValue());
            }
            return m;
        });
    }
}
