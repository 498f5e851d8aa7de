package dev.wharf.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.namesrv.NameServerConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RocketMQ's exporter keys: off by default, loopback when on, and a clear word on a bad value. */
class MetricsSettingsTest {

    @Test
    void offByDefaultAndOnLoopbackWhenTurnedOn() {
        BrokerSettings defaults = BrokerSettings.from(Map.of(), "test");
        assertThat(BrokerMetrics.enabled(defaults.broker())).isFalse();
        BrokerSettings on = BrokerSettings.from(Map.of("metricsExporterType", "prom"), "test");
        assertThat(BrokerMetrics.enabled(on.broker())).isTrue();
        assertThat(on.broker().metrics().getMetricsPromExporterHost()).isEqualTo("127.0.0.1");
        assertThat(on.broker().metrics().getMetricsPromExporterPort()).isEqualTo(5557);
        NameServerConfig ns = new NameServerConfig();
        assertThat(NameServerMetrics.enabled(ns)).isFalse();
        assertThat(ns.getMetricsPromExporterPort()).as("beside a broker on the same host").isEqualTo(5558);
    }

    @Test
    void badValuesAreNamedWithWhatToDo() {
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("metricsExporterType", "OTLP_GRPC"), "broker.conf"))
                .hasMessageContaining("metricsExporterType=OTLP_GRPC").hasMessageContaining("use PROM")
                .hasMessageContaining("broker.conf");
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("metricsExporterType", "GRAPHITE"), "broker.conf"))
                .hasMessageContaining("\"GRAPHITE\" is not known");
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("metricsPromExporterPort", "70000"), "broker.conf"))
                .hasMessageContaining("metricsPromExporterPort must be a port from 0 to 65535");
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("metricsMaxTopics", "-1"), "broker.conf"))
                .hasMessageContaining("metricsMaxTopics is -1");
        assertThatThrownBy(() -> new NameServerConfig().setMetricsPromExporterHost(" "))
                .hasMessageContaining("metricsPromExporterHost is blank");
    }
}
