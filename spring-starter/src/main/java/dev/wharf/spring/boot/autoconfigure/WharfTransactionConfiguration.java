package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.jms.spi.TransactionChecker;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import dev.wharf.spring.boot.transaction.DataSourceTransactionRecorder;
import dev.wharf.spring.boot.transaction.DatabaseTransactionChecker;
import dev.wharf.spring.boot.transaction.TransactedJmsTemplatePostProcessor;
import dev.wharf.spring.boot.transaction.TransactionStats;
import dev.wharf.txchecker.JdbcTransactionChecker;
import dev.wharf.txchecker.JdbcTransactionLog;
import dev.wharf.txchecker.TransactionLogCleaner;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * Messages that commit with the database: when the application has one DataSource (and
 * {@code wharf.transaction.enabled} is not false), Boot's JmsTemplate sends in transacted sessions, each Wharf
 * transaction started in a database transaction writes its id to the transaction-log table in that transaction, and
 * the broker's check-backs are answered from that table. An application's own {@link TransactionChecker} or
 * {@link TransactionLifecycleListener} bean replaces the starter's.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(DataSourceUtils.class)
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(name = "wharf.transaction.enabled", matchIfMissing = true)
class WharfTransactionConfiguration {

    private static final Logger log = LoggerFactory.getLogger(WharfTransactionConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    TransactionStats wharfTransactionStats() {
        return new TransactionStats();
    }

    @Bean
    @ConditionalOnMissingBean
    JdbcTransactionLog wharfTransactionLog(DataSource dataSource, WharfProperties properties) {
        WharfProperties.Transaction tx = properties.getTransaction();
        JdbcTransactionLog transactionLog;
        try {
            transactionLog = new JdbcTransactionLog(dataSource, tx.getTable(), Clock.systemUTC());
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationPropertyValueException("wharf.transaction.table", tx.getTable(),
                    e.getMessage());
        }
        if (tx.isInitializeSchema()) {
            transactionLog.createSchemaIfAbsent();
        }
        return transactionLog;
    }

    @Bean
    @ConditionalOnMissingBean(TransactionLifecycleListener.class)
    DataSourceTransactionRecorder wharfTransactionRecorder(DataSource dataSource, JdbcTransactionLog transactionLog,
            WharfProperties properties, Environment environment, TransactionStats stats) {
        String group = ProducerGroups.resolve(properties, environment);
        if (ProducerGroups.isDefault(group)) {
            log.warn("Transactional messages use the default producer group {}; set wharf.producer-group (or"
                    + " spring.application.name) so that no other application, answering from another database,"
                    + " is asked about this application's transactions", group);
        }
        return new DataSourceTransactionRecorder(dataSource, transactionLog, group, stats,
                properties.getTransaction().isFlushBeforeCommit());
    }

    @Bean
    @ConditionalOnMissingBean(TransactionChecker.class)
    DatabaseTransactionChecker wharfTransactionChecker(JdbcTransactionLog transactionLog, WharfProperties properties,
            TransactionStats stats) {
        Duration rollbackAfter = properties.getTransaction().getRollbackAfter();
        JdbcTransactionChecker rule;
        try {
            rule = new JdbcTransactionChecker(transactionLog, rollbackAfter);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationPropertyValueException("wharf.transaction.rollback-after", rollbackAfter,
                    e.getMessage());
        }
        return new DatabaseTransactionChecker(transactionLog, rule, stats);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    TransactionLogCleaner wharfTransactionLogCleaner(JdbcTransactionLog transactionLog, WharfProperties properties) {
        WharfProperties.Transaction tx = properties.getTransaction();
        requirePositive("wharf.transaction.retention", tx.getRetention());
        requirePositive("wharf.transaction.cleanup-interval", tx.getCleanupInterval());
        if (tx.getCleanupBatchSize() < 1) {
            throw new InvalidConfigurationPropertyValueException("wharf.transaction.cleanup-batch-size",
                    tx.getCleanupBatchSize(), "Give a positive number of rows, e.g. 1000.");
        }
        return new TransactionLogCleaner(transactionLog, tx.getRetention(), tx.getCleanupInterval(),
                tx.getCleanupBatchSize());
    }

    @Bean
    static TransactedJmsTemplatePostProcessor wharfTransactedJmsTemplatePostProcessor() {
        return new TransactedJmsTemplatePostProcessor();
    }

    private static void requirePositive(String property, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidConfigurationPropertyValueException(property, value,
                    "Give a positive duration, e.g. 7d or 1h.");
        }
    }
}
