package dev.wharf.spring.listener;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.protocol.ResponseCode;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a listener's topic when no broker has it yet, as JMS subscriptions do: a consumer of a topic without a
 * route would only find it at its next rebalance, up to 20 s after the first message. A topic that exists is never
 * changed; a refusal (no admin right) is logged, and the consumer then waits for the topic. Thread-safe.
 */
final class TopicCreator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicCreator.class);

    private static final long ROUTE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(3);

    private final Supplier<ClientConfig> config;
    private final int queues;
    private AdminClient admin;

    TopicCreator(Supplier<ClientConfig> config, int queues) {
        this.config = config;
        this.queues = queues;
    }

    synchronized void ensure(String topic) {
        try {
            AdminClient a = admin();
            try {
                a.route(topic);
            } catch (ClientException e) {
                if (e.responseCode() != ResponseCode.TOPIC_NOT_EXIST) {
                    throw e;
                }
                a.createTopic(topic, queues);
                log.info("Created topic {} with {} queues for a @MessageListener", topic, queues);
                awaitRoute(a, topic);
            }
        } catch (ClientException e) {
            log.warn("Could not check or create topic {} ({}); its listener starts when the topic exists", topic,
                    e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits briefly until the NameServer serves the new topic's route: the brokers register it at once, but a
     * consumer started before the registration lands would only find the topic at its next rebalance (20 s).
     */
    private static void awaitRoute(AdminClient a, String topic) throws InterruptedException {
        long deadline = System.nanoTime() + ROUTE_WAIT_NANOS;
        while (System.nanoTime() < deadline) {
            try {
                a.route(topic);
                return;
            } catch (ClientException e) {
                TimeUnit.MILLISECONDS.sleep(20);
            }
        }
        log.info("The NameServer has no route for the new topic {} yet; its listener picks it up later", topic);
    }

    private AdminClient admin() throws ClientException {
        if (admin == null) {
            AdminClient a = new AdminClient(config.get());
            a.start();
            admin = a;
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.shutdown();
            admin = null;
        }
    }
}
