package dev.wharf.samples.listener;

import jakarta.jms.ConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.jms.ConnectionFactoryUnwrapper;
import org.springframework.boot.jms.autoconfigure.DefaultJmsListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.config.DefaultJmsListenerContainerFactory;

/**
 * The listener container factories: Boot's default one for queues, and two for topics. Each starts from Boot's
 * settings ({@code spring.jms.listener.*}: transacted sessions, concurrency, ...) through its configurer.
 */
@Configuration(proxyBeanMethods = false)
class ListenerConfiguration {

    /** The client id of the durable subscription's connection. */
    static final String CLIENT_ID = "listener-sample";

    private static final Logger log = LoggerFactory.getLogger(ListenerConfiguration.class);

    /**
     * Boot's factory for queue listeners (same name, same settings), with an error handler: a listener that throws
     * is expected to here (the broker redelivers, then dead-letters), and the listener says what failed.
     */
    @Bean
    DefaultJmsListenerContainerFactory jmsListenerContainerFactory(
            DefaultJmsListenerContainerFactoryConfigurer configurer, ConnectionFactory connectionFactory) {
        DefaultJmsListenerContainerFactory factory = new DefaultJmsListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        factory.setErrorHandler(e -> log.debug("Listener failed; the message will be delivered again", e));
        return factory;
    }

    /**
     * Durable topic subscriptions. An unshared durable subscription belongs to a client id, and a client id to one
     * connection at a time; so these containers get the Wharf factory behind Boot's caching one and open a
     * connection of their own with that client id, instead of sharing the application's connection.
     */
    @Bean
    DefaultJmsListenerContainerFactory durableTopicListenerFactory(
            DefaultJmsListenerContainerFactoryConfigurer configurer, ConnectionFactory connectionFactory) {
        DefaultJmsListenerContainerFactory factory = new DefaultJmsListenerContainerFactory();
        configurer.configure(factory, ConnectionFactoryUnwrapper.unwrapCaching(connectionFactory));
        factory.setPubSubDomain(true);
        factory.setSubscriptionDurable(true);
        factory.setClientId(CLIENT_ID);
        return factory;
    }

    /**
     * Shared durable topic subscriptions (Jakarta Messaging 2+): several consumers, in one or several
     * applications, share the messages of one subscription; no client id needed.
     */
    @Bean
    DefaultJmsListenerContainerFactory sharedTopicListenerFactory(
            DefaultJmsListenerContainerFactoryConfigurer configurer, ConnectionFactory connectionFactory) {
        DefaultJmsListenerContainerFactory factory = new DefaultJmsListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        factory.setPubSubDomain(true);
        factory.setSubscriptionShared(true);
        factory.setSubscriptionDurable(true);
        return factory;
    }
}
