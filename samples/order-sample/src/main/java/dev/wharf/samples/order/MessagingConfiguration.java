package dev.wharf.samples.order;

import jakarta.jms.ConnectionFactory;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.jms.autoconfigure.DefaultJmsListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.config.DefaultJmsListenerContainerFactory;
import org.springframework.jms.support.converter.JacksonJsonMessageConverter;
import org.springframework.jms.support.converter.MessageConverter;
import org.springframework.jms.support.converter.MessageType;

/**
 * Messages as JSON text (Spring Boot hands this converter to its JmsTemplate, JmsClient and listener containers),
 * and listener containers that leave the logging of a failed payment to the listener.
 */
@Configuration(proxyBeanMethods = false)
class MessagingConfiguration {

    private static final Logger log = LoggerFactory.getLogger(MessagingConfiguration.class);

    /** JSON with a short type name in the "_type" property, not a Java class name. */
    @Bean
    MessageConverter jsonMessageConverter() {
        JacksonJsonMessageConverter converter = new JacksonJsonMessageConverter();
        converter.setTargetType(MessageType.TEXT);
        converter.setTypeIdPropertyName("_type");
        converter.setTypeIdMappings(Map.of("OrderCreated", OrderCreated.class,
                "PaymentRequested", PaymentRequested.class, "OrderTimeout", OrderTimeout.class));
        return converter;
    }

    /**
     * Boot's listener container factory (same name, same settings), with an error handler: a listener that throws
     * is retried by the broker, so the failure is expected here and the listener itself says what failed.
     */
    @Bean
    DefaultJmsListenerContainerFactory jmsListenerContainerFactory(
            DefaultJmsListenerContainerFactoryConfigurer configurer, ConnectionFactory connectionFactory) {
        DefaultJmsListenerContainerFactory factory = new DefaultJmsListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        factory.setErrorHandler(e -> log.debug("Listener failed; the message will be delivered again", e));
        return factory;
    }
}
