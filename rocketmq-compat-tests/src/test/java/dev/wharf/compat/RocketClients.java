package dev.wharf.compat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionMQProducer;

/**
 * Unmodified RocketMQ clients with their default settings (but longer time-outs, see below), pointed at a Wharf name
 * server; each gets its own
 * instance name (so clients of one test do not share a connection factory) and is shut down by {@link #close}.
 */
final class RocketClients implements AutoCloseable {

    private static final AtomicInteger NEXT = new AtomicInteger();
    /**
     * The one setting changed from the defaults: a first send looks up two routes and creates a topic, which takes
     * longer than the default 3 s on a loaded two-core build machine.
     */
    private static final int SEND_TIMEOUT_MILLIS = 15_000;
    /**
     * Likewise for route look-ups and the other calls the client makes with its API timeout (3 s by default): the
     * first one in a fresh JVM also pays for class loading and the connection.
     */
    static final int API_TIMEOUT_MILLIS = 15_000;

    private final String namesrvAddr;
    private final List<Runnable> shutdowns = new ArrayList<>();

    RocketClients(String namesrvAddr) {
        this.namesrvAddr = namesrvAddr;
    }

    private static String instanceName() {
        return "compat-" + ProcessHandle.current().pid() + "-" + NEXT.incrementAndGet();
    }

    DefaultMQProducer producer(String group) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(instanceName());
        producer.setSendMsgTimeout(SEND_TIMEOUT_MILLIS);
        producer.setMqClientApiTimeout(API_TIMEOUT_MILLIS);
        producer.start();
        shutdowns.add(producer::shutdown);
        return producer;
    }

    TransactionMQProducer transactionProducer(String group, org.apache.rocketmq.client.producer.TransactionListener listener)
            throws MQClientException {
        TransactionMQProducer producer = new TransactionMQProducer(group);
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(instanceName());
        producer.setTransactionListener(listener);
        producer.setSendMsgTimeout(SEND_TIMEOUT_MILLIS);
        producer.setMqClientApiTimeout(API_TIMEOUT_MILLIS);
        producer.start();
        shutdowns.add(producer::shutdown);
        return producer;
    }

    /** A push consumer, configured but not started. */
    DefaultMQPushConsumer pushConsumer(String group) {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setMqClientApiTimeout(API_TIMEOUT_MILLIS);
        consumer.setInstanceName(instanceName());
        shutdowns.add(consumer::shutdown);
        return consumer;
    }

    /** A lite pull consumer, configured but not started. */
    DefaultLitePullConsumer litePullConsumer(String group) {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setMqClientApiTimeout(API_TIMEOUT_MILLIS);
        consumer.setInstanceName(instanceName());
        shutdowns.add(consumer::shutdown);
        return consumer;
    }

    @Override
    public void close() {
        for (int i = shutdowns.size() - 1; i >= 0; i--) {
            shutdowns.get(i).run();
        }
        shutdowns.clear();
    }
}
