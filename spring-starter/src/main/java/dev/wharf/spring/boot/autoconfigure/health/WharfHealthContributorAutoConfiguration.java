package dev.wharf.spring.boot.autoconfigure.health;

import dev.wharf.spring.boot.actuate.WharfBrokerClient;
import dev.wharf.spring.boot.actuate.WharfHealthIndicator;
import dev.wharf.spring.boot.autoconfigure.WharfAutoConfiguration;
import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import dev.wharf.spring.listener.MessageListenerRegistry;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code wharf} health indicator, when Spring Boot's health support is present and
 * {@code management.health.wharf.enabled} is not false.
 */
@AutoConfiguration(after = WharfAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(WharfConnectionDetails.class)
@ConditionalOnEnabledHealthIndicator("wharf")
public final class WharfHealthContributorAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    WharfBrokerClient wharfBrokerClient(WharfConnectionDetails details) {
        return new WharfBrokerClient(details::namesrvAddr);
    }

    @Bean
    @ConditionalOnMissingBean(name = "wharfHealthIndicator")
    WharfHealthIndicator wharfHealthIndicator(WharfConnectionDetails details, WharfBrokerClient client,
            ObjectProvider<MessageListenerRegistry> listeners) {
        return new WharfHealthIndicator(details, client, () -> {
            MessageListenerRegistry registry = listeners.getIfAvailable();
            return registry == null ? Map.of() : registry.states();
        });
    }
}
