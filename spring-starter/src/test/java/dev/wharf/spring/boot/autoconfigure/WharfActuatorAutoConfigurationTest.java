package dev.wharf.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.spring.boot.actuate.JmsMessageCounter;
import dev.wharf.spring.boot.actuate.WharfHealthIndicator;
import dev.wharf.spring.boot.actuate.WharfMetrics;
import dev.wharf.spring.boot.autoconfigure.health.WharfHealthContributorAutoConfiguration;
import dev.wharf.spring.boot.autoconfigure.metrics.WharfMetricsAutoConfiguration;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.jakarta9.instrument.jms.JmsProcessObservationContext;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The health indicator and the meters: when they appear, and what the indicator says. */
class WharfActuatorAutoConfigurationTest {

    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WharfAutoConfiguration.class, JmsAutoConfiguration.class,
                        WharfHealthContributorAutoConfiguration.class, WharfMetricsAutoConfiguration.class))
                .withPropertyValues("wharf.embedded.store-dir=" + dir.resolve("store"));
    }

    @Test
    void theEmbeddedBrokerIsHealthy() {
        runner().run(context -> {
            assertThat(context).hasSingleBean(WharfHealthIndicator.class).hasSingleBean(WharfMetrics.class)
                    .hasSingleBean(JmsMessageCounter.class);
            Health health = context.getBean(WharfHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("embedded", true).containsKey("diskMaxUsedSpaceRatio");
        });
    }

    @Test
    void aStoppedEmbeddedBrokerIsDown() {
        runner().run(context -> {
            context.getBean(EmbeddedWharfBroker.class).stop();
            Health health = context.getBean(WharfHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("error", "The embedded broker is stopped");
        });
    }

    @Test
    void aStoreThatRefusesWritesIsDownWithTheReason() {
        runner().run(context -> {
            var storeHealth = context.getBean(EmbeddedWharfBroker.class).broker().store().health();
            storeHealth.diskFull("disk full: store S has 0 bytes free, needs 4096; free space on that file system");
            Health health = context.getBean(WharfHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("store", "DISK_FULL")
                    .containsEntry("error", "disk full: store S has 0 bytes free, needs 4096; free space on that file"
                            + " system");
            storeHealth.diskSpaceOk();
            assertThat(context.getBean(WharfHealthIndicator.class).health(true).getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void anUnreachableBrokerIsDown() {
        runner().withPropertyValues("wharf.url=wharf://127.0.0.1:1").run(context -> {
            Health health = context.getBean(WharfHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("url", "wharf://127.0.0.1:1").containsKey("error");
        });
    }

    @Test
    void theIndicatorCanBeSwitchedOffOrBeAbsent() {
        runner().withPropertyValues("management.health.wharf.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(WharfHealthIndicator.class));
        runner().withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WharfHealthIndicator.class));
    }

    @Test
    void metersNeedMicrometerAndCountOnlyWithItsJmsInstrumentation() {
        runner().withClassLoader(new FilteredClassLoader(MeterBinder.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WharfMetrics.class));
        runner().withClassLoader(new FilteredClassLoader(JmsProcessObservationContext.class)).run(context -> {
            assertThat(context).hasSingleBean(WharfMetrics.class).doesNotHaveBean(JmsMessageCounter.class);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            context.getBean(WharfMetrics.class).bindTo(registry);
            assertThat(registry.find("wharf.messages.sent").meter()).isNull();
        });
    }
}
