package dev.wharf.spring.listener;

import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.body.ConsumerModel;
import dev.wharf.spring.annotation.ConsumeFromWhere;
import dev.wharf.spring.annotation.ConsumeMode;
import dev.wharf.spring.annotation.MessageListener;
import dev.wharf.spring.annotation.MessageModel;
import dev.wharf.spring.annotation.SelectorType;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.function.Function;
import java.util.function.Predicate;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.Headers;
import org.springframework.messaging.support.MessageHeaderAccessor;
import org.springframework.util.StringUtils;

/**
 * Turns a {@link MessageListener} annotation into a checked {@link ListenerEndpoint}: placeholders resolved, every
 * attribute checked alone and against the others, the method's parameters checked. Each refusal is a
 * {@link ListenerDefinitionException} naming the bean, the method and the attribute.
 */
final class ListenerDefinitions {

    private static final DateTimeFormatter COMPACT = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    private final Function<String, String> placeholders;
    private final Predicate<String> converterExists;

    /**
     * @param placeholders    resolves {@code ${...}} (and fails on an unresolvable one)
     * @param converterExists whether a MessageConverter bean of that name exists
     */
    ListenerDefinitions(Function<String, String> placeholders, Predicate<String> converterExists) {
        this.placeholders = placeholders;
        this.converterExists = converterExists;
    }

    ListenerEndpoint define(String beanName, Method method, MessageListener a, int index, String defaultConverter) {
        Check c = new Check(beanName, method);
        String topic = c.resolve("topic", a.topic());
        c.require("topic", topic, TopicValidator.check(topic));
        if (SystemTopics.isInternal(topic)) {
            throw c.fail("topic", topic, "this is an internal topic of the broker; consume an application topic.");
        }
        String group = c.resolve("consumerGroup", a.consumerGroup());
        c.require("consumerGroup", group, TopicValidator.checkGroup(group));
        if (SystemTopics.retryTopic(group).length() > TopicValidator.MAX_TOPIC_LENGTH) {
            throw c.fail("consumerGroup", group, "the name is too long for the group's retry topic; use at most "
                    + (TopicValidator.MAX_TOPIC_LENGTH - SystemTopics.RETRY_GROUP_TOPIC_PREFIX.length()) + " characters.");
        }
        String expression = c.resolve("selectorExpression", a.selectorExpression());
        MessageSelector selector;
        try {
            selector = a.selectorType() == SelectorType.SQL92 ? MessageSelector.bySql(expression)
                    : MessageSelector.byTag(expression);
        } catch (IllegalArgumentException e) {
            throw c.fail("selectorExpression", expression, "not a valid " + a.selectorType() + " expression: "
                    + e.getMessage());
        }
        ConsumeMode mode = a.consumeMode();
        MessageModel model = a.messageModel();
        if (mode == ConsumeMode.ORDERLY && model == MessageModel.BROADCASTING) {
            throw c.fail("consumeMode", mode, "ORDERLY cannot be combined with messageModel = BROADCASTING: a"
                    + " broadcast message that keeps failing would block its queue on that member for ever (there is"
                    + " no retry topic per member); use CONCURRENTLY with BROADCASTING, or ORDERLY with CLUSTERING.");
        }
        if (a.maxReconsumeTimes() < -1) {
            throw c.fail("maxReconsumeTimes", a.maxReconsumeTimes(), "give 0 or more, or -1 for the default (16).");
        }
        if (a.consumeThreads() < 1 || a.consumeThreads() > 1000) {
            throw c.fail("consumeThreads", a.consumeThreads(), "give 1 to 1000 threads.");
        }
        if (a.consumeTimeout() != -1) {
            if (a.consumeTimeout() < 1) {
                throw c.fail("consumeTimeout", a.consumeTimeout(), "give 1 minute or more, or -1 for the default (15).");
            }
            if (mode == ConsumeMode.ORDERLY || model == MessageModel.BROADCASTING) {
                throw c.fail("consumeTimeout", a.consumeTimeout(), "only a CONCURRENTLY consumed CLUSTERING listener"
                        + " sends a message that takes too long back for a retry elsewhere; remove the attribute.");
            }
        }
        if (a.delayLevelWhenNextConsume() != 0) {
            if (a.delayLevelWhenNextConsume() < -1) {
                throw c.fail("delayLevelWhenNextConsume", a.delayLevelWhenNextConsume(), "give -1 (straight to the"
                        + " dead-letter queue), 0 (the broker's choice) or a level 1..n of the broker's"
                        + " messageDelayLevel.");
            }
            if (mode == ConsumeMode.ORDERLY || model == MessageModel.BROADCASTING) {
                throw c.fail("delayLevelWhenNextConsume", a.delayLevelWhenNextConsume(), "only a CONCURRENTLY"
                        + " consumed CLUSTERING listener retries through the broker after a delay (ORDERLY retries"
                        + " in place, BROADCASTING on the member); remove the attribute.");
            }
        }
        long timestamp = consumeTimestamp(c, a);
        String converter = c.resolve("messageConverter", a.messageConverter());
        if (converter.isEmpty()) {
            converter = defaultConverter;
        } else if (!converterExists.test(converter)) {
            throw c.fail("messageConverter", converter, "there is no MessageConverter bean of that name; define"
                    + " one, or leave the attribute empty for the default converter (byte[], String, JSON).");
        }
        String autoStartup = c.resolve("autoStartup", a.autoStartup());
        if (!autoStartup.equals("true") && !autoStartup.equals("false")) {
            throw c.fail("autoStartup", autoStartup, "give true or false.");
        }
        checkParameters(c, method);
        String id = c.resolve("id", a.id());
        if (id.isEmpty()) {
            // a bean named after its class (imported, registered by type) is known by its simple class name
            String owner = beanName.contains(".") ? StringUtils.uncapitalize(method.getDeclaringClass().getSimpleName())
                    : beanName;
            id = owner + "#" + method.getName() + (index == 0 ? "" : "#" + index);
        }
        return new ListenerEndpoint(id, beanName, method, topic, group, selector, mode, model,
                ConsumerModel.ConsumeFromWhere.valueOf(a.consumeFromWhere().name()), timestamp,
                a.maxReconsumeTimes(), a.consumeThreads(), a.consumeTimeout(), a.delayLevelWhenNextConsume(),
                converter, Boolean.parseBoolean(autoStartup));
    }

    private long consumeTimestamp(Check c, MessageListener a) {
        String value = c.resolve("consumeTimestamp", a.consumeTimestamp()).strip();
        if (value.isEmpty()) {
            return 0;
        }
        if (a.consumeFromWhere() != ConsumeFromWhere.CONSUME_FROM_TIMESTAMP) {
            throw c.fail("consumeTimestamp", value, "a start time needs consumeFromWhere = CONSUME_FROM_TIMESTAMP"
                    + " (it is " + a.consumeFromWhere() + "); set that or remove the timestamp.");
        }
        try {
            if (value.chars().allMatch(Character::isDigit)) {
                return value.length() == 14
                        ? LocalDateTime.parse(value, COMPACT).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli()
                        : Long.parseLong(value);
            }
            return Instant.parse(value).toEpochMilli();
        } catch (DateTimeException | NumberFormatException e) {
            throw c.fail("consumeTimestamp", value, "give an ISO-8601 instant (2026-01-31T08:00:00Z), epoch"
                    + " milliseconds, or yyyyMMddHHmmss.");
        }
    }

    /** At most one parameter takes the payload; the others must be headers or whole-message types. */
    private static void checkParameters(Check c, Method method) {
        Parameter payload = null;
        for (Parameter p : method.getParameters()) {
            if (p.isAnnotationPresent(Header.class) || p.isAnnotationPresent(Headers.class)
                    || MessageExt.class.isAssignableFrom(p.getType())
                    || org.springframework.messaging.Message.class.isAssignableFrom(p.getType())
                    || MessageHeaders.class.isAssignableFrom(p.getType())
                    || MessageHeaderAccessor.class.isAssignableFrom(p.getType())) {
                continue;
            }
            if (payload != null) {
                throw c.fail("parameter " + p.getName(), null, "the method has two payload parameters ("
                        + payload.getName() + " and " + p.getName() + "); annotate all but the payload with @Header,"
                        + " or take the whole message (MessageExt or Message<T>).");
            }
            payload = p;
        }
    }

    /** Resolves and checks the attributes of one annotation. */
    private final class Check {

        private final String beanName;
        private final Method method;

        Check(String beanName, Method method) {
            this.beanName = beanName;
            this.method = method;
        }

        String resolve(String attribute, String value) {
            try {
                String resolved = placeholders.apply(value);
                return resolved == null ? "" : resolved.strip();
            } catch (IllegalArgumentException e) {
                throw fail(attribute, value, "the placeholder cannot be resolved: " + e.getMessage());
            }
        }

        void require(String attribute, String value, String problem) {
            if (problem != null) {
                throw fail(attribute, value, problem);
            }
        }

        ListenerDefinitionException fail(String attribute, Object value, String reason) {
            return new ListenerDefinitionException(beanName, method, attribute, value, reason);
        }
    }
}
