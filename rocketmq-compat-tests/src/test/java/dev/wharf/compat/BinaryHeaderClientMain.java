package dev.wharf.compat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;

/**
 * A RocketMQ application in its own JVM, started with {@code -Drocketmq.serialize.type=ROCKETMQ} (the client reads
 * the setting once, when its classes load, so it cannot be switched inside the test JVM): it sends and consumes, and prints one {@code RESULT} line per step for the test to check. Exit code 0 when every step
 * worked.
 */
public final class BinaryHeaderClientMain {

    private BinaryHeaderClientMain() {
    }

    public static void main(String[] args) throws Exception {
        String namesrv = args[0];
        String topic = args[1];
        SerializeType type = RemotingCommand.createRequestCommand(10, null).getSerializeTypeCurrentRPC();
        System.out.println("RESULT serializeType=" + type);
        if (type != SerializeType.ROCKETMQ) {
            System.exit(3);
        }
        DefaultMQProducer producer = new DefaultMQProducer("binary-pg");
        producer.setNamesrvAddr(namesrv);
        producer.setSendMsgTimeout(15_000);
        producer.setMqClientApiTimeout(RocketClients.API_TIMEOUT_MILLIS);
        producer.start();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("binary-cg");
        try {
            byte[] large = Bodies.text(10 * 1024, 5);
            for (int i = 0; i < 4; i++) {
                Message m = new Message(topic, "b", "bin-" + i, i == 0 ? large : ("binary " + i).getBytes(StandardCharsets.UTF_8));
                m.putUserProperty("n", String.valueOf(i));
                SendStatus status = producer.send(m).getSendStatus();
                System.out.println("RESULT sent " + i + " " + status);
            }
            producer.sendOneway(new Message(topic, "b", "bin-oneway", "oneway".getBytes(StandardCharsets.UTF_8)));

            Map<String, Message> got = new ConcurrentHashMap<>();
            consumer.setNamesrvAddr(namesrv);
            consumer.setMqClientApiTimeout(RocketClients.API_TIMEOUT_MILLIS);
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.subscribe(topic, "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                msgs.forEach(m -> got.put(m.getKeys(), m));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (got.size() < 5 && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            System.out.println("RESULT received " + new java.util.TreeSet<>(got.keySet()));
            boolean intact = got.containsKey("bin-0") && java.util.Arrays.equals(got.get("bin-0").getBody(), large)
                    && "2".equals(got.get("bin-2").getUserProperty("n"));
            System.out.println("RESULT intact " + intact);
            System.exit(got.size() == 5 && intact ? 0 : 1);
        } finally {
            consumer.shutdown();
            producer.shutdown();
        }
    }
}
