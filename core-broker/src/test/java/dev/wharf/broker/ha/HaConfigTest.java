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

    @Test
    void withoutAnExplicitRoleTheBrokerIdSaysMasterOrSlave() {
        assertThat(BrokerSettings.from(Map.of("brokerId", "1"), "f").ha().getBrokerRole()).isEqualTo(BrokerRole.SLAVE);
        assertThat(BrokerSettings.from(Map.of("brokerId", "0"), "f").ha().getBrokerRole())
                .isEqualTo(BrokerRole.ASYNC_MASTER);
        assertThat(BrokerSettings.from(Map.of(), "f").ha().getBrokerRole()).isEqualTo(BrokerRole.ASYNC_MASTER);
        // beans set in code settle the same way when validated (as a Broker does)
        BrokerSettings s = BrokerSettings.defaults();
        s.broker().setBrokerId(2);
        s.validate();
        assertThat(s.ha().getBrokerRole()).isEqualTo(BrokerRole.SLAVE);
        assertThat(s.broker().isSlave()).isTrue();
        // the derived role follows a changed id; it is not frozen by the first validation
        s.broker().setBrokerId(0);
        s.validate();
        assertThat(s.ha().getBrokerRole()).isEqualTo(BrokerRole.ASYNC_MASTER);
        // an explicit role that agrees with the id is taken as given
        assertThat(BrokerSettings.from(Map.of("brokerRole", "SLAVE", "brokerId", "3"), "f").ha().getBrokerRole())
                .isEqualTo(BrokerRole.SLAVE);
    }

    @Test
    void anExplicitRoleThatContradictsTheBrokerIdIsRefusedNamingBoth() {
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("brokerRole", "ASYNC_MASTER", "brokerId", "1"),
                "broker.conf"))
                .hasMessageContaining("brokerRole is ASYNC_MASTER but brokerId is 1")
                .hasMessageContaining("Set brokerId=0 for a master, or brokerRole=SLAVE (or leave brokerRole out)")
                .hasMessageContaining("broker.conf");
        BrokerSettings s = BrokerSettings.defaults();
        s.ha().setBrokerRole(BrokerRole.SYNC_MASTER);
        s.broker().setBrokerId(1);
        assertThatThrownBy(s::validate).hasMessageContaining("brokerRole is SYNC_MASTER but brokerId is 1");
        BrokerSettings slave = BrokerSettings.defaults();
        slave.ha().setBrokerRole(BrokerRole.SLAVE);
        assertThatThrownBy(slave::validate).hasMessageContaining("brokerRole is SLAVE but brokerId is 0");
    }
}
