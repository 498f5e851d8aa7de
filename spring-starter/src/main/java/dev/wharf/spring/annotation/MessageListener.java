package dev.wharf.spring.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Consumes a topic with the annotated method, as a member of a consumer group. Any bean may have any number of
 * such methods, and a method may carry the annotation several times (one consumer each).
 *
 * <p><b>Parameters.</b> At most one parameter receives the payload, converted from the message body by the
 * message converter (a String, a byte[], or any other type read as JSON; {@code @Payload} may mark it). The others
 * are {@code @Header} values (the names in {@link dev.wharf.spring.support.WharfHeaders}: keys, tags, message id,
 * queue id, reconsume times, born timestamp, and each user property under its own name), {@code @Headers}
 * {@code Map<String, Object>}, {@link org.springframework.messaging.MessageHeaders}, the whole Spring
 * {@link org.springframework.messaging.Message}, or the broker's {@link dev.wharf.common.message.MessageExt}.
 *
 * <p><b>Outcome.</b> A method that returns normally consumed the message. A method that throws asks for a retry:
 * concurrently consumed messages come back through the group's retry topic after a delay (see
 * {@link #delayLevelWhenNextConsume()}) and, after {@link #maxReconsumeTimes()} failures, go to the group's
 * dead-letter queue {@code %DLQ%<group>}; orderly consumed ones are delivered again at once, in place, and also
 * go to the dead-letter queue after {@code maxReconsumeTimes} failures. A return value is sent as the reply when
 * the message names a reply destination (as {@code JmsTemplate.sendAndReceive} and
 * {@code WharfTemplate.sendAndReceive} do); otherwise it is ignored.
 *
 * <p>Every String attribute may hold {@code ${...}} placeholders, resolved against the environment at start-up.
 * A wrong attribute stops the application at start-up with a message naming the bean, the method and the
 * attribute.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(MessageListeners.class)
public @interface MessageListener {

    /**
     * The listener's id in the {@code MessageListenerRegistry} (to start or stop it); default
     * {@code bean#method}, and {@code bean#method#n} for the n-th repetition on one method (from 1).
     */
    String id() default "";

    /** The topic to consume. */
    String topic();

    /**
     * The consumer group. Members of one group share the work (clustering) and must subscribe alike, so a group is
     * used by one listener per application.
     */
    String consumerGroup();

    /** How {@link #selectorExpression()} is read. */
    SelectorType selectorType() default SelectorType.TAG;

    /** Which messages of the topic: {@code "*"} (all), {@code "a || b"} (tags), or an SQL92 expression. */
    String selectorExpression() default "*";

    /** Parallel or in queue order. ORDERLY cannot be combined with BROADCASTING. */
    ConsumeMode consumeMode() default ConsumeMode.CONCURRENTLY;

    /** Shared by the group's members or delivered to each. */
    MessageModel messageModel() default MessageModel.CLUSTERING;

    /** Where a group without a committed offset starts. */
    ConsumeFromWhere consumeFromWhere() default ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET;

    /**
     * For {@link ConsumeFromWhere#CONSUME_FROM_TIMESTAMP}: an ISO-8601 instant ({@code 2026-01-31T08:00:00Z}),
     * epoch milliseconds, or {@code yyyyMMddHHmmss} in the system time zone; empty means half an hour before start.
     * Refused with any other {@code consumeFromWhere}.
     */
    String consumeTimestamp() default "";

    /**
     * Failures before a message goes to the dead-letter queue (broadcasting: is given up); -1 (default) means the
     * client's default, 16.
     */
    int maxReconsumeTimes() default -1;

    /** Threads that run the method (in ORDERLY mode: at most this many queues at once). */
    int consumeThreads() default 20;

    /**
     * Minutes a message may be in the method before it is sent back for a retry elsewhere (CONCURRENTLY and
     * CLUSTERING only); -1 (default) means the client's default, 15.
     */
    long consumeTimeout() default -1;

    /**
     * The delay level of a retry after a failure (CONCURRENTLY and CLUSTERING only): 0 (default) lets the broker
     * choose ({@code 3 + reconsumeTimes}: 10 s, 30 s, 1 min, ...), 1..n picks a level of the broker's
     * {@code messageDelayLevel} (1 = 1 s by default), -1 sends a failed message straight to the dead-letter queue.
     */
    int delayLevelWhenNextConsume() default 0;

    /**
     * The bean name of the {@link org.springframework.messaging.converter.MessageConverter} for this listener's
     * payloads and replies; empty (default) means the application's {@code wharfMessageConverter}.
     */
    String messageConverter() default "";

    /** Whether the listener starts with the application; if "false", start it through the registry. */
    String autoStartup() default "true";
}
