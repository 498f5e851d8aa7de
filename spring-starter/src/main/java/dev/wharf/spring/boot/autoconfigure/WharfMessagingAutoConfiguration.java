package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.client.producer.Producer;
import dev.wharf.common.TopicValidator;
import dev.wharf.spring.core.WharfTemplate;
import dev.wharf.spring.listener.MessageListenerAnnotationBeanPostProcessor;
import dev.wharf.spring.listener.MessageListenerRegistry;
import dev.wharf.spring.support.WharfMessageConverters;
import io.micrometer.observation.ObservationRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.util.StringUtils;

/**
 * The RocketMQ-style Spring API on the application's Wharf broker: {@code @MessageListener} methods (found by
 * {@link MessageListenerAnnotationBeanPostProcessor}, run by the {@link MessageListenerRegistry}), the
 * {@link WharfTemplate}, and the {@code wharfMessageConverter} both use (byte[], String, else JSON). Each bean gives
 * way to the application's own.
 */
@AutoConfiguration(after = WharfAutoConfiguration.class)
@ConditionalOnBean(WharfConnectionDetails.class)
@EnableConfigurationProperties(WharfMessagingProperties.class)
public final class WharfMessagingAutoConfiguration {

    @Bean
    static MessageListenerAnnotationBeanPostProcessor wharfMessageListenerAnnotationBeanPostProcessor() {
        return new MessageListenerAnnotationBeanPostProcessor();
    }

    @Bean(name = MessageListenerAnnotationBeanPostProcessor.DEFAULT_CONVERTER)
    @ConditionalOnMissingBean(name = MessageListenerAnnotationBeanPostProcessor.DEFAULT_CONVERTER)
    MessageConverter wharfMessageConverter() {
        return WharfMessageConverters.defaults();
    }

    @Bean
    @ConditionalOnMissingBean
    WharfTemplate wharfTemplate(WharfConnectionDetails details, WharfProperties properties,
            WharfMessagingProperties messaging, Environment environment,
            ObjectProvider<ConnectionFactory> connectionFactory, ObjectProvider<ObservationRegistry> observations,
            @org.springframework.beans.factory.annotation.Qualifier(
                    MessageListenerAnnotationBeanPostProcessor.DEFAULT_CONVERTER) MessageConverter converter) {
        String group = templateGroup(properties, messaging, environment);
        Duration timeout = properties.getSendTimeout();
        // the producer (and the broker address, which may start a vm:// broker) only with the first send
        WharfTemplate template = new WharfTemplate(() -> {
            Producer producer = new Producer(group,
                    MessagingClientConfigs.create(details, properties, messaging.getInstanceName(), "template"));
            if (timeout != null) {
                producer.setSendMsgTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis())));
            }
            return producer;
        }, connectionFactory.getIfUnique(), observations.getIfAvailable(() -> ObservationRegistry.NOOP));
        template.setMessageConverter(converter);
        return template;
    }

    @Bean
    @ConditionalOnMissingBean
    MessageListenerRegistry wharfMessageListenerRegistry(WharfConnectionDetails details, WharfProperties properties,
            WharfMessagingProperties messaging, ObjectProvider<WharfTemplate> template,
            ObjectProvider<ObservationRegistry> observations) {
        if (messaging.getShutdownTimeout() == null || messaging.getShutdownTimeout().isNegative()) {
            throw new InvalidConfigurationPropertyValueException("wharf.messaging.shutdown-timeout",
                    messaging.getShutdownTimeout(), "Give a duration of 0 or more, e.g. 10s.");
        }
        if (messaging.getTopicQueues() < 1 || messaging.getTopicQueues() > 1024) {
            throw new InvalidConfigurationPropertyValueException("wharf.messaging.topic-queues",
                    messaging.getTopicQueues(), "Give 1 to 1024 queues.");
        }
        String instanceName = messaging.getInstanceName();
        if (instanceName != null && instanceName.isBlank()) {
            throw new InvalidConfigurationPropertyValueException("wharf.messaging.instance-name", instanceName,
                    "Give a name, or leave the property unset for a name per application context.");
        }
        return new MessageListenerRegistry(
                () -> MessagingClientConfigs.create(details, properties, instanceName, "listener"),
                messaging.getShutdownTimeout(), messaging.getOffsetStoreDir(), messaging.getTopicQueues(),
                template::getObject, () -> observations.getIfAvailable(() -> ObservationRegistry.NOOP));
    }

    /** {@code wharf.messaging.template-producer-group}, else the application's producer group + "-template". */
    static String templateGroup(WharfProperties properties, WharfMessagingProperties messaging,
            Environment environment) {
        String group = StringUtils.hasText(messaging.getTemplateProducerGroup())
                ? messaging.getTemplateProducerGroup().strip()
                : ProducerGroups.resolve(properties, environment) + "-template";
        String problem = TopicValidator.checkGroup(group);
        if (problem != null) {
            throw new InvalidConfigurationPropertyValueException("wharf.messaging.template-producer-group", group,
                    problem);
        }
        return group;
    }
}
