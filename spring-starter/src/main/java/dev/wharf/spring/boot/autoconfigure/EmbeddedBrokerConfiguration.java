package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/** The broker inside the application, when no {@code wharf.url} is set. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(ConnectionFactory.class)
@Conditional(OnEmbeddedBrokerCondition.class)
class EmbeddedBrokerConfiguration {

    @Bean(destroyMethod = "stop")
    @ConditionalOnMissingBean
    EmbeddedWharfBroker wharfEmbeddedBroker(WharfProperties properties, Environment environment) {
        WharfProperties.Embedded embedded = properties.getEmbedded();
        if (embedded.getPort() < 0 || embedded.getPort() > 65_535) {
            throw new InvalidConfigurationPropertyValueException("wharf.embedded.port", embedded.getPort(),
                    "Give a port from 1 to 65535, or 0 for any free port.");
        }
        Path storeDir = embedded.getStoreDir() != null ? embedded.getStoreDir() : defaultStoreDir(environment);
        return EmbeddedWharfBroker.start(EmbeddedBrokerSettingsFactory.create(embedded, storeDir), embedded.getPort());
    }

    @Bean
    @ConditionalOnMissingBean
    WharfConnectionDetails wharfConnectionDetails(EmbeddedWharfBroker broker) {
        return new WharfConnectionDetails("wharf://" + broker.namesrvAddr(), broker);
    }

    /** {@code ${user.home}/.wharf/<spring.application.name or "wharf">/store}. */
    static Path defaultStoreDir(Environment environment) {
        String app = environment.getProperty("spring.application.name");
        String folder = StringUtils.hasText(app) ? app.strip().replaceAll("[^A-Za-z0-9_.-]", "_") : "wharf";
        return Path.of(System.getProperty("user.home"), ".wharf", folder, "store");
    }
}
