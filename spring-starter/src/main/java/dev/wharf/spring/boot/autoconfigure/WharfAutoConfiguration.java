package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.ConnectionFactory;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of Wharf for Spring Boot: a {@code jmsConnectionFactory} that Boot's JmsTemplate, JmsClient and
 * {@code @JmsListener} support use unchanged, an embedded broker when no {@code wharf.url} is set, and messages that
 * commit with the application's database transactions. Runs before Boot's JMS auto-configuration (which needs a
 * ConnectionFactory bean) and after the DataSource's. An application's own ConnectionFactory bean wins.
 */
// Boot's classes by name, as Boot 4 (first) and Boot 3.5 (second) call them: this class is compiled into the Boot 4
// and the Boot 3 starter alike, and the sorter ignores names of the other generation.
@AutoConfiguration(
        beforeName = { "org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration",
                "org.springframework.boot.autoconfigure.jms.JmsAutoConfiguration" },
        afterName = { "org.springframework.boot.jms.autoconfigure.JndiConnectionFactoryAutoConfiguration",
                "org.springframework.boot.transaction.jta.autoconfigure.JtaAutoConfiguration",
                "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
                "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
                "org.springframework.boot.autoconfigure.jms.JndiConnectionFactoryAutoConfiguration",
                "org.springframework.boot.autoconfigure.transaction.jta.JtaAutoConfiguration",
                "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
                "org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration" })
@ConditionalOnClass({ ConnectionFactory.class, WharfConnectionFactory.class })
@EnableConfigurationProperties(WharfProperties.class)
@Import({ WharfTransactionConfiguration.class, EmbeddedBrokerConfiguration.class,
        WharfConnectionFactoryConfiguration.class })
public final class WharfAutoConfiguration {

    /** Refuses {@code wharf.transaction.enabled=true} without a DataSource instead of silently doing nothing. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "wharf.transaction.enabled", havingValue = true)
    @ConditionalOnMissingBean(DataSource.class)
    static class TransactionsWithoutDataSourceConfiguration {

        @Bean
        Object wharfTransactionsWithoutDataSource() {
            throw new InvalidConfigurationPropertyValueException("wharf.transaction.enabled", true,
                    "Transactional messages need the application's DataSource, and there is none; add"
                            + " spring-boot-starter-jdbc and configure spring.datasource.*, or remove the property.");
        }
    }
}
