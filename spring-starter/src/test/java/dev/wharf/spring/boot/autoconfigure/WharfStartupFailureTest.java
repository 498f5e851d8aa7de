package dev.wharf.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Bad values stop the start-up with the property's name, the value and what to do. */
class WharfStartupFailureTest {

    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WharfAutoConfiguration.class, JmsAutoConfiguration.class))
                .withPropertyValues("wharf.embedded.store-dir=" + dir.resolve("store"));
    }

    private ApplicationContextRunner withDatabase() {
        return runner().withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:fail-" + System.nanoTime());
    }

    private static void failsWith(ApplicationContextRunner runner, String property,
                                  Consumer<ThrowableAssert<InvalidConfigurationPropertyValueException>> reason) {
        runner.run(context -> {
            assertThat(context).hasFailed();
            Throwable t = context.getStartupFailure();
            while (t != null && !(t instanceof InvalidConfigurationPropertyValueException)) {
                t = t.getCause();
            }
            assertThat(t).as("an InvalidConfigurationPropertyValueException in %s", context.getStartupFailure())
                    .isNotNull();
            InvalidConfigurationPropertyValueException e = (InvalidConfigurationPropertyValueException) t;
            assertThat(e.getName()).isEqualTo(property);
            reason.accept(new ThrowableAssert<>(e));
        });
    }

    @Test
    void anUnknownBrokerSettingSuggestsTheRightName() {
        failsWith(runner().withPropertyValues("wharf.embedded.broker.transactionCheckIntervall=1000"),
                "wharf.embedded.broker.transactionCheckIntervall",
                e -> e.hasMessageContaining("did you mean \"transactionCheckInterval\""));
    }

    @Test
    void aBrokerSettingOfTheWrongFormNamesItself() {
        failsWith(runner().withPropertyValues("wharf.embedded.broker.transaction-check-interval=soon"),
                "wharf.embedded.broker.transactionCheckInterval", e -> e.hasMessageContaining("soon"));
    }

    @Test
    void settingsTheStarterOwnsPointToTheirProperty() {
        failsWith(runner().withPropertyValues("wharf.embedded.broker.storePathRootDir=/elsewhere"),
                "wharf.embedded.broker.storePathRootDir", e -> e.hasMessageContaining("wharf.embedded.store-dir"));
    }

    @Test
    void aMalformedUrlIsRefused() {
        failsWith(runner().withPropertyValues("wharf.url=tcp://broker:61616"), "wharf.url",
                e -> e.hasMessageContaining("wharf://"));
    }

    @Test
    void anUnknownFactoryOptionSuggestsTheRightName() {
        failsWith(runner().withPropertyValues("wharf.options.pullBatchSiz=4"), "wharf.options.pullBatchSiz",
                e -> e.hasMessageContaining("did you mean \"pullBatchSize\""));
        failsWith(runner().withPropertyValues("wharf.options.consume-threads=4"), "wharf.options.consumeThreads",
                e -> e.hasMessageContaining("was removed").hasMessageContaining("spring.jms.listener.concurrency"));
        failsWith(runner().withPropertyValues("wharf.options.lease-time=5"), "wharf.options.leaseTime",
                e -> e.hasMessageContaining("leaseTime must be between 1000"));
        failsWith(runner().withPropertyValues("wharf.options.brokerURL=wharf://x:1"), "wharf.options.brokerURL",
                e -> e.hasMessageContaining("wharf.url"));
    }

    @Test
    void outOfRangeValuesAreRefused() {
        failsWith(runner().withPropertyValues("wharf.max-reconsume-times=-1"), "wharf.max-reconsume-times",
                e -> e.hasMessageContaining("at least 0"));
        failsWith(runner().withPropertyValues("wharf.producer-group=bad group!"), "wharf.producer-group",
                e -> e.hasMessageContaining("bad group!"));
        failsWith(runner().withPropertyValues("wharf.embedded.port=70000"), "wharf.embedded.port",
                e -> e.hasMessageContaining("0 for any free port"));
    }

    @Test
    void badTransactionSettingsAreRefused() {
        failsWith(withDatabase().withPropertyValues("wharf.transaction.rollback-after=0s"),
                "wharf.transaction.rollback-after", e -> e.hasMessageContaining("longest database transaction"));
        failsWith(withDatabase().withPropertyValues("wharf.transaction.table=tx log"), "wharf.transaction.table",
                e -> e.hasMessageContaining("plain SQL identifier"));
        failsWith(withDatabase().withPropertyValues("wharf.transaction.retention=0d"), "wharf.transaction.retention",
                e -> e.hasMessageContaining("positive duration"));
    }

    @Test
    void transactionsWithoutADataSourceAreRefused() {
        failsWith(runner().withPropertyValues("wharf.transaction.enabled=true"), "wharf.transaction.enabled",
                e -> e.hasMessageContaining("DataSource"));
    }
}
