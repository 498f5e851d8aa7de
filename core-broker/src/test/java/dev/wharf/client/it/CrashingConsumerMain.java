package dev.wharf.client.it;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A consumer in its own process, for the crash test: prints "GOT id" for every consumed message and then
 * consumes slowly, so that the test can kill it with uncommitted work in flight.
 * Arguments: namesrvAddr group topic instanceName.
 */
public final class CrashingConsumerMain {

    private CrashingConsumerMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(args[0]);
        config.setInstanceName(args[3]);
        config.setPersistConsumerOffsetInterval(200);
        PushConsumer consumer = new PushConsumer(args[1], config);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeThreadMin(1);
        consumer.setConsumeThreadMax(1);
        consumer.subscribe(args[2], "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                out.println("GOT " + m.getMsgId());
            }
            try {
                Thread.sleep(20); // slow on purpose: the process is killed in the middle of the work
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        out.println("STARTED");
        Thread.currentThread().join();
    }
}
