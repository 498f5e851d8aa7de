package dev.wharf.jms.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.jms.message.DeserializationPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Options from URL parameters, their checks, and the vm:// broker-settings contract. */
class ConnectionConfigTest {

    @Test
    void defaults() {
        WharfConnectionConfig c = WharfConnectionConfig.parse("wharf://localhost:9876");
        ConnectionOptions o = c.options();
        assertThat(o.getClientID()).isNull();
        assertThat(o.getProducerGroup()).isEqualTo("WHARF_JMS_PRODUCER");
        assertThat(o.getMaxReconsumeTimes()).isEqualTo(16);
        assertThat(o.getRedeliveryDelay()).isZero();
        assertThat(o.getSendTimeout()).isEqualTo(3000);
        assertThat(o.getPullBatchSize()).isEqualTo(256);
        assertThat(o.getDeserializationAllowList()).isEmpty();
        assertThat(c.deserializationPolicy()).isSameAs(DeserializationPolicy.DEFAULT);
        assertThat(c.namesrvAddr()).isEqualTo("localhost:9876");
        assertThat(c.brokerSettings()).isEmpty();
        assertThat(c.storePathRootDir()).isNull();
    }

    @Test
    void urlParametersSetOptions() {
        WharfConnectionConfig c = WharfConnectionConfig.parse("wharf://a:1,b:2?maxReconsumeTimes=3&clientID=app-1"
                + "&redeliveryDelay=1500&sendTimeout=100&pullBatchSize=64&producerGroup=PG"
                + "&instanceName=i1&retryTimesWhenSendFailed=0&pollNameServerInterval=100"
                + "&heartbeatBrokerInterval=200&persistConsumerOffsetInterval=300"
                + "&deserializationAllowList=com.example,java.util&deserializationDenyList=com.example.bad");
        ConnectionOptions o = c.options();
        assertThat(o.getMaxReconsumeTimes()).isEqualTo(3);
        assertThat(o.getClientID()).isEqualTo("app-1");
        assertThat(o.getRedeliveryDelay()).isEqualTo(1500);
        assertThat(o.getSendTimeout()).isEqualTo(100);
        assertThat(o.getPullBatchSize()).isEqualTo(64);
        assertThat(o.getProducerGroup()).isEqualTo("PG");
        assertThat(o.getInstanceName()).isEqualTo("i1");
        assertThat(o.getRetryTimesWhenSendFailed()).isZero();
        assertThat(o.getPollNameServerInterval()).isEqualTo(100);
        assertThat(o.getHeartbeatBrokerInterval()).isEqualTo(200);
        assertThat(o.getPersistConsumerOffsetInterval()).isEqualTo(300);
        assertThat(c.deserializationPolicy().isAllowed("java.util.Date")).isTrue();
        assertThat(c.deserializationPolicy().isAllowed("com.example.bad.X")).isFalse();
        assertThat(c.deserializationPolicy().isAllowed("org.other.Y")).isFalse();
        assertThat(c.namesrvAddr()).isEqualTo("a:1;b:2");
        assertThat(c.nameServerAddresses()).containsExactly("a:1", "b:2");
    }

    @Test
    void everyOptionIsAUrlParameterAndAReferenceSetting() {
        ConnectionOptions all = new ConnectionOptions();
        all.setClientID("c");
        all.setInstanceName("i");
        all.setUser("u");
        all.setPassword("secret-password");
        all.setTls(true);
        all.setTlsKeyPassword("secret-key-password");
        // passwords are options but never settings of a reference (they would end up in JNDI trees and logs)
        assertThat(BeanBinder.keys(ConnectionOptions.class))
                .filteredOn(key -> !key.equals("password") && !key.equals("tlsKeyPassword"))
                .containsExactlyInAnyOrderElementsOf(all.toSettings().keySet());
        assertThat(all.toSettings().toString()).doesNotContain("secret");
    }

    @Test
    void anUnknownParameterOnAWharfUrlFailsWithAHint() {
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?maxReconsumeTime=3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"maxReconsumeTime\" (did you mean \"maxReconsumeTimes\"?)")
                .hasMessageContaining("the broker URL \"wharf://h:1?maxReconsumeTime=3\"");
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?flushDiskType=SYNC_FLUSH"))
                .hasMessageContaining("\"flushDiskType\"").hasMessageContaining("only by vm:// URLs");
    }

    @Test
    void badOptionValuesFailWithTheOptionAndTheRange() {
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?maxReconsumeTimes=-1"))
                .hasMessageContaining("maxReconsumeTimes must be at least 0");
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?pullBatchSize=5000"))
                .hasMessageContaining("pullBatchSize must be between 1 and 1024");
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?sendTimeout=soon"))
                .hasMessageContaining("sendTimeout=soon is not a valid long");
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?clientID=a%20b"))
                .hasMessageContaining("The client id \"a b\" contains ' '");
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?producerGroup=a/b"))
                .hasMessageContaining("producerGroup");
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?deserializationAllowList=1x"))
                .hasMessageContaining("deserializationAllowList entry \"1x\"");
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?instanceName=%20"))
                .hasMessageContaining("instanceName");
    }

    @Test
    void aRefusedUrlLeavesTheTargetOptionsUnchanged() {
        ConnectionOptions target = new ConnectionOptions();
        target.setSendTimeout(42);
        assertThatThrownBy(() -> WharfConnectionConfig.applyUrl("wharf://h:1?sendTimeout=7&pullBatchSize=0", target))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(target.getSendTimeout()).isEqualTo(42);
        WharfConnectionConfig.applyUrl("wharf://h:1?sendTimeout=7", target);
        assertThat(target.getSendTimeout()).isEqualTo(7);
    }

    @Test
    void vmUrlsKeepBrokerSettingsApartFromOptions() {
        WharfConnectionConfig c = WharfConnectionConfig.parse(
                "vm://local?maxReconsumeTimes=2&flushDiskType=SYNC_FLUSH&storePathRootDir=/data/w&listenPort=0");
        assertThat(c.isVm()).isTrue();
        assertThat(c.vmBrokerName()).isEqualTo("local");
        assertThat(c.namesrvAddr()).isNull();
        assertThat(c.options().getMaxReconsumeTimes()).isEqualTo(2);
        assertThat(c.brokerSettings()).containsExactly(Map.entry("flushDiskType", "SYNC_FLUSH"),
                Map.entry("storePathRootDir", "/data/w"), Map.entry("listenPort", "0"));
        assertThat(c.storePathRootDir()).isEqualTo("/data/w");
        assertThatThrownBy(() -> c.brokerSettings().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    /** Stands in for a broker configuration class: the binder only needs setters. */
    public static class SampleBrokerConfig {
        private String flushDiskType;

        public void setFlushDiskType(String flushDiskType) {
            this.flushDiskType = flushDiskType;
        }

        public String getFlushDiskType() {
            return flushDiskType;
        }
    }

    @Test
    void brokerSettingsAreBoundLaterAndUnknownOnesGetHintsFromBothSides() {
        WharfConnectionConfig c = WharfConnectionConfig.parse("vm://x?flushDiskType=ASYNC&maxReconsumeTime=3"
                + "&flushDiskTyp=1");
        SampleBrokerConfig broker = new SampleBrokerConfig();
        List<String> unknown = BeanBinder.bind(c.brokerSettings(), broker);
        assertThat(broker.getFlushDiskType()).isEqualTo("ASYNC");
        assertThat(unknown).containsExactly("maxReconsumeTime", "flushDiskTyp");
        assertThat(c.describeUnknownBrokerSettings(unknown, broker))
                .contains("\"maxReconsumeTime\" (did you mean \"maxReconsumeTimes\"?)")
                .contains("\"flushDiskTyp\" (did you mean \"flushDiskType\"?)")
                .contains("vm://x");
    }

    @Test
    void optionsCopyAndCompare() {
        ConnectionOptions a = new ConnectionOptions();
        a.setClientID("c");
        a.setMaxReconsumeTimes(1);
        ConnectionOptions b = new ConnectionOptions(a);
        assertThat(b).isEqualTo(a).hasSameHashCodeAs(a);
        b.setMaxReconsumeTimes(2);
        assertThat(b).isNotEqualTo(a);
        assertThat(a.toSettings()).containsEntry("clientID", "c").containsEntry("maxReconsumeTimes", "1");
        assertThat(new ConnectionOptions().toSettings()).doesNotContainKeys("clientID", "instanceName");
        assertThat(ConnectionOptions.clientIdProblem("x".repeat(65))).contains("64");
        assertThat(ConnectionOptions.clientIdProblem("")).contains("empty");
        assertThat(ConnectionOptions.clientIdProblem("ok_1.2-3")).isNull();
        assertThat(WharfConnectionConfig.parse("vm://a")).isEqualTo(WharfConnectionConfig.parse("vm://a"));
        assertThat(WharfConnectionConfig.parse("vm://a?x=1").toString()).contains("brokerSettings={x=1}");
    }
}
