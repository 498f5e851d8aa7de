package dev.wharf.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.config.BeanBinder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The broker's settings split into per-subsystem parts: the flat keys stay, each part binds and validates its own. */
class BrokerConfigPartsTest {

    /** Every key BrokerConfig had before its settings moved into parts. */
    private static final List<String> FLAT_KEYS = List.of(
            "brokerName", "brokerClusterName", "brokerId", "namesrvAddr", "brokerIP1",
            "autoCreateTopicEnable", "autoCreateSubscriptionGroup", "defaultTopicQueueNums",
            "registerNameServerPeriod", "registerBrokerTimeoutMills", "flushConsumerOffsetInterval",
            "longPollingEnable", "shortPollingTimeMills", "sendMessageThreadPoolNums",
            "pullMessageThreadPoolNums", "queryMessageThreadPoolNums", "adminBrokerThreadPoolNums",
            "clientManageThreadPoolNums", "sendThreadPoolQueueCapacity", "pullThreadPoolQueueCapacity",
            "queryThreadPoolQueueCapacity", "adminBrokerThreadPoolQueueCapacity",
            "clientManagerThreadPoolQueueCapacity", "channelExpiredTimeout", "clientHousekeepingInterval",
            "maxReconsumeTimes", "rebalanceLockMaxLiveTime", "offsetResetGuardMillis", "messageDelayLevel",
            "transactionCheckInterval", "transactionTimeOut", "transactionCheckMax",
            "endTransactionThreadPoolNums", "endTransactionPoolQueueCapacity", "timerMaxDelaySec",
            "timerRollIntervalSec", "flushDelayOffsetInterval", "popMessageThreadPoolNums",
            "ackMessageThreadPoolNums", "popThreadPoolQueueCapacity", "ackThreadPoolQueueCapacity",
            "popScanUnitsPerQueue", "popLeaseScanInterval", "ackStateSnapshotInterval",
            "forceDeliveryCounts", "slaveSynchronizeInterval", "whichBrokerWhenConsumeSlowly",
            "accessMessageInMemoryMaxRatio", "metricsExporterType", "metricsPromExporterHost",
            "metricsPromExporterPort", "metricsMaxTopics", "metricsMaxLagSeries",
            "innerClientAuthenticationCredentials", "innerClientTlsEnable", "innerClientTlsTrustCertPath",
            "innerClientTlsCertPath", "innerClientTlsKeyPath", "innerClientTlsKeyPassword");

    @Test
    void everyFlatKeyIsStillAKeyOfTheBrokerBean() {
        assertThat(BeanBinder.keys(BrokerConfig.class)).containsAll(FLAT_KEYS);
        assertThat(BeanBinder.read(new BrokerConfig())).containsKeys(FLAT_KEYS.toArray(String[]::new));
    }

    @Test
    void flatKeysLandInTheirPart() {
        BrokerSettings settings = BrokerSettings.from(Map.of("sendMessageThreadPoolNums", "3",
                "sendThreadPoolQueueCapacity", "7", "endTransactionThreadPoolNums", "5", "transactionTimeOut", "900",
                "messageDelayLevel", "1s 2s", "popScanUnitsPerQueue", "64", "longPollingEnable", "false",
                "registerNameServerPeriod", "2000", "slaveSynchronizeInterval", "500", "metricsMaxTopics", "9"), "test");
        BrokerConfig broker = settings.broker();
        assertThat(broker.executors().send()).isEqualTo(new ExecutorSpec(3, 7));
        assertThat(broker.transaction().endTransaction().threads()).isEqualTo(5);
        assertThat(broker.transaction().getTransactionTimeOut()).isEqualTo(900);
        assertThat(broker.schedule().delayLevelCount()).isEqualTo(2);
        assertThat(broker.pop().getPopScanUnitsPerQueue()).isEqualTo(64);
        assertThat(broker.polling().holdMillis(15_000)).as("short polling").isEqualTo(1_000);
        assertThat(broker.registration().getRegisterNameServerPeriod()).isEqualTo(2_000);
        assertThat(broker.slaves().getSlaveSynchronizeInterval()).isEqualTo(500);
        assertThat(broker.metrics().getMetricsMaxTopics()).isEqualTo(9);
    }

    @Test
    void aBadValueInAnyPartIsNamedWithItsKeyAndTheFile() {
        Map<String, String> bad = Map.of("pullMessageThreadPoolNums", "0", "endTransactionPoolQueueCapacity", "-1",
                "transactionCheckMax", "0", "flushDelayOffsetInterval", "1", "popLeaseScanInterval", "1",
                "shortPollingTimeMills", "-1", "registerBrokerTimeoutMills", "1", "accessMessageInMemoryMaxRatio", "101",
                "metricsMaxLagSeries", "-1");
        assertThatThrownBy(() -> BrokerSettings.from(bad, "broker.conf"))
                .hasMessageContaining("pullMessageThreadPoolNums is 0; use a value from 1 to 1024.")
                .hasMessageContaining("endTransactionPoolQueueCapacity is -1; use at least 0.")
                .hasMessageContaining("transactionCheckMax is 0").hasMessageContaining("flushDelayOffsetInterval is 1")
                .hasMessageContaining("popLeaseScanInterval is 1").hasMessageContaining("shortPollingTimeMills is -1")
                .hasMessageContaining("registerBrokerTimeoutMills is 1")
                .hasMessageContaining("accessMessageInMemoryMaxRatio is 101")
                .hasMessageContaining("metricsMaxLagSeries is -1").hasMessageContaining("broker.conf");
    }

    @Test
    void aMisspelledKeyOfAPartGetsAHint() {
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("transactionTimeout", "1"), "broker.conf"))
                .hasMessageContaining("did you mean \"transactionTimeOut\"").hasMessageContaining("broker.conf");
    }
}
