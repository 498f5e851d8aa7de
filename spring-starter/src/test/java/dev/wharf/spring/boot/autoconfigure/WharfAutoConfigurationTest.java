package dev.wharf.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.spi.TransactionCheck;
import dev.wharf.jms.spi.TransactionChecker;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import dev.wharf.jms.spi.TransactionOutcome;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import dev.wharf.spring.boot.transaction.CheckBackMembership;
import dev.wharf.spring.boot.transaction.DataSourceTransactionRecorder;
import dev.wharf.spring.boot.transaction.DatabaseTransactionChecker;
import dev.wharf.store.FlushDiskType;
import dev.wharf.txchecker.JdbcTransactionLog;
import dev.wharf.txchecker.TransactionLogCleaner;
import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;

/** The auto-configuration's conditions, defaults, user overrides and property binding. */
class WharfAutoConfigurationTest {

    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WharfAutoConfiguration.class, JmsAutoConfiguration.class))
                .withPropertyValues("wharf.embedded.store-dir=" + dir.resolve("store"));
    }

    private ApplicationContextRunner runnerWithDatabase() {
        return runner().withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:acr-" + System.nanoTime()
                        + ";DB_CLOSE_DELAY=-1");
    }

    private static WharfConnectionFactory wharfFactory(ConnectionFactory bean) {
        ConnectionFactory target = bean instanceof CachingConnectionFactory c ? c.getTargetConnectionFactory() : bean;
        assertThat(target).isInstanceOf(WharfConnectionFactory.class);
        return (WharfConnectionFactory) target;
    }

    @Test
    void withoutAUrlAnEmbeddedBrokerStartsAndTheCachedFactoryPointsAtIt() {
        runner().run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(EmbeddedWharfBroker.class)
                    .hasSingleBean(ConnectionFactory.class).hasSingleBean(JmsTemplate.class)
                    .hasSingleBean(CheckBackMembership.class);
            EmbeddedWharfBroker broker = context.getBean(EmbeddedWharfBroker.class);
            assertThat(broker.isRunning()).isTrue();
            assertThat(broker.storeDir()).isEqualTo(dir.resolve("store"));
            assertThat(context.getBean("jmsConnectionFactory")).isInstanceOf(CachingConnectionFactory.class);
            WharfConnectionFactory factory = wharfFactory(context.getBean(ConnectionFactory.class));
            assertThat(factory.getBrokerURL()).isEqualTo("wharf://" + broker.namesrvAddr());
            assertThat(context.getBean(WharfConnectionDetails.class).embeddedBroker()).isSameAs(broker);
            assertThat(context.getBean(CheckBackMembership.class).isMember()).as("joined its producer group").isTrue();
            // no DataSource: no transactional messaging, the template keeps Spring's default
            assertThat(context).doesNotHaveBean(JdbcTransactionLog.class);
            assertThat(factory.getTransactionLifecycleListener()).isNull();
            assertThat(context.getBean(JmsTemplate.class).isSessionTransacted()).isFalse();
        });
    }

    @Test
    void theEmbeddedBrokerStopsWithTheContext() {
        EmbeddedWharfBroker[] broker = new EmbeddedWharfBroker[1];
        runner().run(context -> broker[0] = context.getBean(EmbeddedWharfBroker.class));
        assertThat(broker[0].isRunning()).isFalse();
    }

    @Test
    void aUrlReplacesTheEmbeddedBroker() {
        runner().withPropertyValues("wharf.url=wharf://127.0.0.1:1").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedWharfBroker.class);
            assertThat(wharfFactory(context.getBean(ConnectionFactory.class)).getBrokerURL())
                    .isEqualTo("wharf://127.0.0.1:1");
            assertThat(context.getBean(CheckBackMembership.class).isMember()).as("nothing listens there").isFalse();
        });
    }

    @Test
    void theEmbeddedBrokerCanBeSwitchedOff() {
        runner().withPropertyValues("wharf.embedded.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedWharfBroker.class);
            assertThat(wharfFactory(context.getBean(ConnectionFactory.class)).getBrokerURL())
                    .isEqualTo(WharfConnectionFactory.DEFAULT_BROKER_URL);
        });
    }

    @Test
    void springJmsCacheSettingsApply() {
        runner().withPropertyValues("spring.jms.cache.session-cache-size=7", "spring.jms.cache.producers=false")
                .run(context -> {
                    CachingConnectionFactory factory = context.getBean(CachingConnectionFactory.class);
                    assertThat(factory.getSessionCacheSize()).isEqualTo(7);
                    assertThat(factory.isCacheProducers()).isFalse();
                });
        runner().withPropertyValues("spring.jms.cache.enabled=false").run(context -> assertThat(
                context.getBean("jmsConnectionFactory")).isInstanceOf(WharfConnectionFactory.class));
    }

    @Test
    void bootsOwnJmsSettingsApplyOnTopOfWharf() {
        runner().withPropertyValues("spring.jms.pub-sub-domain=true", "spring.jms.template.delivery-delay=2s",
                "spring.jms.template.qos-enabled=true", "spring.jms.template.time-to-live=30s",
                "spring.jms.listener.min-concurrency=2", "spring.jms.listener.max-concurrency=4").run(context -> {
                    JmsTemplate template = context.getBean(JmsTemplate.class);
                    assertThat(template.isPubSubDomain()).isTrue();
                    assertThat(template.getDeliveryDelay()).isEqualTo(2000);
                    assertThat(template.isExplicitQosEnabled()).isTrue();
                    assertThat(template.getTimeToLive()).isEqualTo(30_000);
                    assertThat(context).hasBean("jmsListenerContainerFactory").hasBean("jmsMessagingTemplate")
                            .hasBean("jmsClient");
                    Object factory = context.getBean("jmsListenerContainerFactory");
                    assertThat(factory).extracting("concurrency").isEqualTo("2-4");
                    assertThat(factory).extracting("connectionFactory").isInstanceOf(WharfConnectionFactory.class);
                });
    }

    @Test
    void theApplicationsOwnConnectionFactoryWins() {
        runner().withUserConfiguration(OwnConnectionFactory.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(ConnectionFactory.class)
                    .doesNotHaveBean(EmbeddedWharfBroker.class).doesNotHaveBean(CheckBackMembership.class);
            assertThat(((WharfConnectionFactory) context.getBean(ConnectionFactory.class)).getBrokerURL())
                    .isEqualTo("wharf://127.0.0.1:2");
        });
    }

    @Test
    void propertiesBindOntoTheFactoryAndTheBroker() {
        runner().withPropertyValues("wharf.producer-group=billing", "wharf.max-reconsume-times=3",
                "wharf.redelivery-delay=250ms", "wharf.send-timeout=5s", "wharf.options.lease-time=5000",
                "wharf.options.pullBatchSize=8", "wharf.embedded.flush-disk-type=sync-flush",
                "wharf.embedded.broker.transaction-check-interval=1500",
                "wharf.embedded.broker.transactionTimeOut=700").run(context -> {
                    WharfConnectionFactory factory = wharfFactory(context.getBean(ConnectionFactory.class));
                    assertThat(factory.getProducerGroup()).isEqualTo("billing");
                    assertThat(factory.getMaxReconsumeTimes()).isEqualTo(3);
                    assertThat(factory.getRedeliveryDelay()).isEqualTo(250);
                    assertThat(factory.getSendTimeout()).isEqualTo(5000);
                    assertThat(factory.getLeaseTime()).isEqualTo(5000);
                    assertThat(factory.getPullBatchSize()).isEqualTo(8);
                    EmbeddedWharfBroker broker = context.getBean(EmbeddedWharfBroker.class);
                    assertThat(broker.broker().settings().store().getFlushDiskType())
                            .isEqualTo(FlushDiskType.SYNC_FLUSH);
                    assertThat(broker.broker().config().transaction().getTransactionCheckInterval()).isEqualTo(1500);
                    assertThat(broker.broker().config().transaction().getTransactionTimeOut()).isEqualTo(700);
                });
    }

    @Test
    void theProducerGroupFollowsTheApplicationName() {
        runner().withPropertyValues("spring.application.name=order service").run(context -> assertThat(
                wharfFactory(context.getBean(ConnectionFactory.class)).getProducerGroup())
                .isEqualTo("order-service-producer"));
    }

    @Test
    void withADataSourceMessagesCommitWithTheDatabase() {
        runnerWithDatabase().withPropertyValues("wharf.producer-group=orders-producer").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(JdbcTransactionLog.class)
                    .hasSingleBean(DataSourceTransactionRecorder.class).hasSingleBean(DatabaseTransactionChecker.class)
                    .hasSingleBean(TransactionLogCleaner.class);
            WharfConnectionFactory factory = wharfFactory(context.getBean(ConnectionFactory.class));
            assertThat(factory.getTransactionLifecycleListener())
                    .isSameAs(context.getBean(TransactionLifecycleListener.class));
            assertThat(factory.getTransactionChecker()).isSameAs(context.getBean(TransactionChecker.class));
            assertThat(context.getBean(JmsTemplate.class).isSessionTransacted()).isTrue();
            try (Connection c = context.getBean(DataSource.class).getConnection();
                 ResultSet rs = c.getMetaData().getTables(null, null, "WHARF_TX_LOG", null)) {
                assertThat(rs.next()).as("the transaction-log table was created").isTrue();
            }
        });
    }

    @Test
    void anExplicitTemplateSessionSettingIsRespected() {
        runnerWithDatabase().withPropertyValues("spring.jms.template.session.transacted=false").run(context -> {
            assertThat(context).hasSingleBean(DataSourceTransactionRecorder.class);
            assertThat(context.getBean(JmsTemplate.class).isSessionTransacted()).isFalse();
        });
    }

    @Test
    void transactionSupportCanBeSwitchedOff() {
        runnerWithDatabase().withPropertyValues("wharf.transaction.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(JdbcTransactionLog.class)
                    .doesNotHaveBean(TransactionChecker.class);
            assertThat(context.getBean(JmsTemplate.class).isSessionTransacted()).isFalse();
        });
    }

    @Test
    void theSchemaIsLeftAloneWhenAsked() {
        runnerWithDatabase().withPropertyValues("wharf.transaction.initialize-schema=false",
                "wharf.transaction.table=my_tx").run(context -> {
                    assertThat(context.getBean(JdbcTransactionLog.class).table()).isEqualTo("my_tx");
                    try (Connection c = context.getBean(DataSource.class).getConnection();
                         ResultSet rs = c.getMetaData().getTables(null, null, "MY_TX", null)) {
                        assertThat(rs.next()).isFalse();
                    }
                });
    }

    @Test
    void theApplicationsCheckBackHandlerWins() {
        runnerWithDatabase().withUserConfiguration(OwnChecker.class).run(context -> {
            assertThat(context).hasSingleBean(TransactionChecker.class).doesNotHaveBean(DatabaseTransactionChecker.class);
            assertThat(wharfFactory(context.getBean(ConnectionFactory.class)).getTransactionChecker())
                    .isSameAs(context.getBean("ownChecker"));
        });
    }

    @Test
    void withoutSpringJdbcThereIsNoTransactionSupport() {
        runner().withUserConfiguration(PlainDataSource.class)
                .withClassLoader(new FilteredClassLoader(DataSourceUtils.class)).run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(DataSource.class)
                            .doesNotHaveBean(JdbcTransactionLog.class);
                });
        runner().withUserConfiguration(PlainDataSource.class).run(context -> assertThat(context)
                .hasSingleBean(JdbcTransactionLog.class));
    }

    @Test
    void withoutTheProviderNothingIsConfigured() {
        runner().withClassLoader(new FilteredClassLoader(WharfConnectionFactory.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ConnectionFactory.class)
                        .doesNotHaveBean(EmbeddedWharfBroker.class).doesNotHaveBean(WharfProperties.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnConnectionFactory {
        @Bean
        ConnectionFactory myConnectionFactory() {
            return new WharfConnectionFactory("wharf://127.0.0.1:2");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnChecker {
        @Bean
        TransactionChecker ownChecker() {
            return (TransactionCheck check) -> TransactionOutcome.UNKNOWN;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PlainDataSource {
        @Bean
        DataSource dataSource() {
            JdbcDataSource ds = new JdbcDataSource();
            ds.setURL("jdbc:h2:mem:plain-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
            return ds;
        }
    }
}
