package dev.wharf.spring.listener;

import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.protocol.body.ConsumerModel;
import dev.wharf.spring.annotation.ConsumeMode;
import dev.wharf.spring.annotation.MessageModel;
import java.lang.reflect.Method;

/**
 * One {@code @MessageListener}, its attributes resolved and checked: what its container consumes and how.
 *
 * @param id                        the id in the registry
 * @param beanName                  the bean whose method consumes
 * @param method                    the method
 * @param topic                     the topic
 * @param consumerGroup             the consumer group
 * @param selector                  tag or SQL92 selector
 * @param consumeMode               concurrently or orderly
 * @param messageModel              clustering or broadcasting
 * @param consumeFromWhere          the start position of a group without offsets
 * @param consumeTimestamp          epoch ms for CONSUME_FROM_TIMESTAMP, 0 for the client's default
 * @param maxReconsumeTimes         failures before the dead-letter queue, -1 for the client's default
 * @param consumeThreads            the consume threads
 * @param consumeTimeoutMinutes     the consume timeout, -1 for the client's default
 * @param delayLevelWhenNextConsume the retry delay level (0 = broker's choice, -1 = dead-letter at once)
 * @param messageConverter          the bean name of the converter
 * @param autoStartup               whether it starts with the application
 */
public record ListenerEndpoint(String id, String beanName, Method method, String topic, String consumerGroup,
                               MessageSelector selector, ConsumeMode consumeMode, MessageModel messageModel,
                               ConsumerModel.ConsumeFromWhere consumeFromWhere, long consumeTimestamp,
                               int maxReconsumeTimes, int consumeThreads, long consumeTimeoutMinutes,
                               int delayLevelWhenNextConsume, String messageConverter, boolean autoStartup) {

    /** {@code Bean.method} for messages. */
    public String describe() {
        return ListenerDefinitionException.describe(beanName, method);
    }
}
