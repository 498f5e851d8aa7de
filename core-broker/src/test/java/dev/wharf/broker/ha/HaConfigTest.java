package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.broker.config.BrokerSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Replication settings bind from RocketMQ's flat keys and are checked against the broker's id. */
class HaConfigTest {

    @Test
    void flatKeysBindOntoTheReplicationBean() {
        BrokerSettings s = BrokerSettings.from(Map.of("brokerRole", "SYNC_MASTER", "haListenPort", "20912",
                "haMasterAddress", "10.0.0.5:10912", "haSendHeartbeatInterval", "1000", "haTransferBatchSize", "65536",
                "haMaxGapNotInSync", "1048576", "slaveTimeout", "2000", "minInSyncReplicas", "3",
                "slaveReadEnable", "true"), "test");
        HaConfig ha = s.ha();
        assertThat(ha.getBrokerRole()).isEqualTo(BrokerRole.SYNC_MASTER);
        assertThat(ha.effectiveHaListenPort(10911)).isEqualTo(20912);
        assertThat(ha.getHaMasterAddress()).isEqualTo("10.0.0.5:10912");
        assertThat(ha.getHaSendHeartbeatInterval()).isEqualTo(1000);
        assertThat(ha.getHaTransferBatchSize()).isEqualTo(65536);
        assertThat(ha.getHaMaxGapNotInSync()).isEqualTo(1048576);
        assertThat(ha.getSlaveTimeout()).isEqualTo(2000);
        assertThat(ha.requiredSlaveAcks()).isEqualTo(2);
        assertThat(ha.isSlaveReadEnable()).isTrue();
    }

    @Test
    void defaultsMakeSyncMasterWaitForOneSlave() {
        HaConfig ha = BrokerSettings.defaults().ha();
        assertThat(ha.getBrokerRole()).isEqualTo(BrokerRole.ASYNC_MASTER);
        assertThat(ha.getMinInSyncReplicas()).isEqualTo(2);
        assertThat(ha.isSyncMasterDegradeToAsync()).isFalse();
        assertThat(ha.effectiveHaListenPort(10911)).isEqualTo(10912);
        assertThat(ha.effectiveHaListenPort(0)).isZero();
    }

    @Test
    void rolesMustMatchTheBrokerId() {
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("brokerRole", "SLAVE"), "broker.conf"))
                .hasMessageContaining("brokerRole is SLAVE but brokerId is 0").hasMessageContaining("broker.conf");
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("brokerRole", "SYNC_MASTER", "brokerId", "2"), "f"))
                .hasMessageContaining("a master has brokerId 0");
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("brokerRole", "SYNC_MASTER", "minInSyncReplicas", "1"),
                "f")).hasMessageContaining("which is ASYNC_MASTER");
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("brokerRole", "MASTER"), "f"))
                .hasMessageContaining("brokerRole");
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("haMasterAddres", "x:1"), "f"))
                .hasMessageContaining("did you mean \"haMasterAddress\"");
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("brokerRole", "SLAVE", "brokerId", "1",
                "haMasterAddress", "nohost"), "f")).hasMessageContaining("is not host:port");
    }
}
