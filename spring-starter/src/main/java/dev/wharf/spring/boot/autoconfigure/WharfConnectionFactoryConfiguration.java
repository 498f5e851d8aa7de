package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.spi.TransactionChecker;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import dev.wharf.spring.boot.transaction.CheckBackMembership;
import jakarta.jms.ConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.jms.ConnectionFactoryUnwrapper;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.util.StringUtils;

/**
 * The {@code jmsConnectionFactory} bean: a Wharf factory, wrapped in Spring's {@link CachingConnectionFactory}
 * unless {@code spring.jms.cache.enabled=false}, with the transaction hooks when the application has them.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(ConnectionFactory.class)
class WharfConnectionFactoryConfiguration {

    private static final Logger log = LoggerFactory.getLogger(WharfConnectionFactoryConfiguration.class);

    /** The broker named by {@code wharf.url}, or a NameServer on this host when the embedded broker is off. */
    @Bean
    @ConditionalOnMissingBean
    WharfConnectionDetails wharfConnectionDetails(WharfProperties properties) {
        if (StringUtils.hasText(properties.getUrl())) {
            return new WharfConnectionDetails(properties.getUrl().strip(), null);
        }
        log.info("No wharf.url and wharf.embedded.enabled=false: connecting to {}",
                WharfConnectionFactory.DEFAULT_BROKER_URL);
        return new WharfConnectionDetails(WharfConnectionFactory.DEFAULT_BROKER_URL, null);
    }

    static WharfConnectionFactory createWharfConnectionFactory(WharfProperties properties, Environment environment,
            WharfConnectionDetails details, ObjectProvider<TransactionLifecycleListener> lifecycle,
            ObjectProvider<TransactionChecker> checker, ObjectProvider<SslBundles> sslBundles) {
        String group = ProducerGroups.resolve(properties, environment);
        return new WharfConnectionFactoryFactory(properties, group, sslBundles::getIfAvailable).create(details.url(),
                lifecycle.getIfUnique(), checker.getIfUnique());
    }

    /** Keeps the application in its producer group from start-up on (see {@link CheckBackMembership}). */
    @Bean
    @ConditionalOnMissingBean
    CheckBackMembership wharfCheckBackMembership(ConnectionFactory jmsConnectionFactory) {
        return new CheckBackMembership(ConnectionFactoryUnwrapper.unwrapCaching(jmsConnectionFactory));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "spring.jms.cache.enabled", havingValue = false)
    static class NativeConnectionFactoryConfiguration {

        @Bean(name = "jmsConnectionFactory")
        WharfConnectionFactory jmsConnectionFactory(WharfProperties properties, Environment environment,
                WharfConnectionDetails details, ObjectProvider<TransactionLifecycleListener> lifecycle,
                ObjectProvider<TransactionChecker> checker, ObjectProvider<SslBundles> sslBundles) {
            return createWharfConnectionFactory(properties, environment, details, lifecycle, checker, sslBundles);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(CachingConnectionFactory.class)
    @ConditionalOnBooleanProperty(name = "spring.jms.cache.enabled", matchIfMissing = true)
    static class CachingConnectionFactoryConfiguration {

        @Bean(name = "jmsConnectionFactory")
        CachingConnectionFactory jmsConnectionFactory(WharfProperties properties,
                Environment environment, WharfConnectionDetails details,
                ObjectProvider<TransactionLifecycleListener> lifecycle, ObjectProvider<TransactionChecker> checker,
                ObjectProvider<SslBundles> sslBundles) {
            CachingConnectionFactory factory = new CachingConnectionFactory(
                    createWharfConnectionFactory(properties, environment, details, lifecycle, checker, sslBundles));
            // spring.jms.cache.* read by key, with Boot's defaults: JmsProperties lives in a different package in
            // Boot 3.5 and Boot 4, and this class serves both
            Binder binder = Binder.get(environment);
            factory.setCacheConsumers(binder.bind("spring.jms.cache.consumers", Boolean.class).orElse(false));
            factory.setCacheProducers(binder.bind("spring.jms.cache.producers", Boolean.class).orElse(true));
            factory.setSessionCacheSize(binder.bind("spring.jms.cache.session-cache-size", Integer.class).orElse(1));
            return factory;
        }
    }
}
