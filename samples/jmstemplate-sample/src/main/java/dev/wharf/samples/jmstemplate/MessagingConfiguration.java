package dev.wharf.samples.jmstemplate;

import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.support.converter.JacksonJsonMessageConverter;
import org.springframework.jms.support.converter.MessageConverter;
import org.springframework.jms.support.converter.MessageType;

/**
 * Objects as JSON text messages. Spring Boot hands a MessageConverter bean to its JmsTemplate and to the
 * {@code @JmsListener} containers, so {@code convertAndSend} and listener parameters and return values use it.
 */
@Configuration(proxyBeanMethods = false)
class MessagingConfiguration {

    /** The JSON's type travels in the "_type" property as a short name, not as a Java class name. */
    @Bean
    MessageConverter jsonMessageConverter() {
        JacksonJsonMessageConverter converter = new JacksonJsonMessageConverter();
        converter.setTargetType(MessageType.TEXT);
        converter.setTypeIdPropertyName("_type");
        converter.setTypeIdMappings(Map.of("Invoice", Invoice.class, "PriceRequest", PriceRequest.class,
                "PriceQuote", PriceQuote.class));
        return converter;
    }
}
