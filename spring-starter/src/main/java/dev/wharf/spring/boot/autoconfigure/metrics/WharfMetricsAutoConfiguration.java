package dev.wharf.spring.boot.autoconfigure.metrics;

import dev.wharf.spring.boot.actuate.JmsMessageCounter;
import dev.wharf.spring.boot.actuate.WharfBrokerClient;
import dev.wharf.spring.boot.actuate.WharfMetrics;
import dev.wharf.spring.boot.autoconfigure.WharfAutoConfiguration;
import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import dev.wharf.spring.boot.transaction.TransactionStats;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.jakarta9.instrument.jms.JmsProcessObservationContext;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.jms.config.JmsListenerEndpointRegistry;
import org.springframework.jms.listener.AbstractMessageListenerContainer;
import org.springframework.jms.listener.MessageListenerContainer;

/**
 * Wharf's Micrometer meters ({@link WharfMetrics}), when Micrometer is present: Boot binds the {@link MeterBinder}
 * to its registries and registers the {@link JmsMessageCounter} observation handler with its ObservationRegistry.
 */
@AutoConfiguration(after = WharfAutoConfiguration.class,
        afterName = { "org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration",
                "org.springframework.boot.autoconfigure.jms.JmsAutoConfiguration" })
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(WharfConnectionDetails.class)
public final class WharfMetricsAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    WharfBrokerClient wharfBrokerClient(WharfConnectionDetails details) {
        return new WharfBrokerClient(details::namesrvAddr);
    }

    @Bean
    @ConditionalOnMissingBean
    WharfMetrics wharfMetrics(ObjectProvider<JmsMessageCounter> messages, ObjectProvider<TransactionStats> transactions,
            WharfBrokerClient client) {
        return new WharfMetrics(messages.getIfUnique(), transactions.getIfUnique(), client);
    }

    @Bean
    ListenerQueueMeters wharfListenerQueueMeters(WharfMetrics metrics,
            ObjectProvider<JmsListenerEndpointRegistry> registry) {
        return new ListenerQueueMeters(metrics, registry);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JmsProcessObservationContext.class)
    static class JmsObservationCountingConfiguration {

        @Bean
        @ConditionalOnMissingBean
        JmsMessageCounter wharfJmsMessageCounter() {
            return new JmsMessageCounter();
        }
    }

    /** Registers the queue meters of the {@code @JmsListener} queues once the containers exist. */
    static final class ListenerQueueMeters implements ApplicationListener<ContextRefreshedEvent> {

        private final WharfMetrics metrics;
        private final ObjectProvider<JmsListenerEndpointRegistry> registry;

        ListenerQueueMeters(WharfMetrics metrics, ObjectProvider<JmsListenerEndpointRegistry> registry) {
            this.metrics = metrics;
            this.registry = registry;
        }

        @Override
        public void onApplicationEvent(ContextRefreshedEvent event) {
            registry.ifAvailable(r -> metrics.registerQueues(queues(r)));
        }

        static Set<String> queues(JmsListenerEndpointRegistry registry) {
            Set<String> queues = new TreeSet<>();
            for (MessageListenerContainer container : registry.getListenerContainers()) {
                if (container instanceof AbstractMessageListenerContainer c && !c.isPubSubDomain()
                        && c.getDestinationName() != null) {
                    queues.add(c.getDestinationName());
                }
            }
            return queues;
        }
    }
}
