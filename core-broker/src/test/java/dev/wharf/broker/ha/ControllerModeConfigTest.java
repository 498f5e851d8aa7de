package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.broker.config.BrokerSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The controller-mode keys as a broker file gives them: what they mean in that mode and the errors they get. */
class ControllerModeConfigTest {

    @Test
    void controllerModeKeysBindWithRocketMqNames() {
        BrokerSettings s = BrokerSettings.from(Map.of("enableControllerMode", "true",
                "controllerAddr", "127.0.0.1:9878;127.0.0.1:9868", "brokerRole", "SYNC_MASTER", "brokerId", "2",
                "brokerHeartbeatInterval", "300", "controllerHeartBeatTimeoutMills", "2500",
                "masterLeaseMillis", "1500"), "test");
        assertThat(s.controller().isEnableControllerMode()).isTrue();
        assertThat(s.controller().getControllerAddr()).isEqualTo("127.0.0.1:9878;127.0.0.1:9868");
        // brokerId is the replica's id at the controllers, not a role: a SYNC_MASTER with id 2 is valid here
        assertThat(s.ha().getBrokerRole()).isEqualTo(BrokerRole.SYNC_MASTER);
        assertThat(s.broker().getBrokerId()).isEqualTo(2);
        assertThat(s.controller().getMasterLeaseMillis()).isEqualTo(1500);
    }

    @Test
    void controllerModeWithoutControllersIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("enableControllerMode", "true"), "broker.conf"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("controllerAddr")
                .hasMessageContaining("broker.conf");
    }

    @Test
    void slaveRoleInControllerModeIsExplained() {
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("enableControllerMode", "true", "controllerAddr",
                "127.0.0.1:9878", "brokerRole", "SLAVE", "brokerId", "1"), "broker.conf"))
                .hasMessageContaining("brokerRole is SLAVE with enableControllerMode=true")
                .hasMessageContaining("ASYNC_MASTER or SYNC_MASTER");
    }

    @Test
    void leaseNotShorterThanTheHeartbeatTimeoutIsRefused() {
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("enableControllerMode", "true", "controllerAddr",
                "127.0.0.1:9878", "masterLeaseMillis", "3000"), "broker.conf"))
                .hasMessageContaining("masterLeaseMillis is 3000")
                .hasMessageContaining("controllerHeartBeatTimeoutMills (3000)");
    }

    @Test
    void outsideControllerModeTheKeysChangeNothing() {
        BrokerSettings s = BrokerSettings.from(Map.of("controllerAddr", "127.0.0.1:9878", "brokerId", "1"), "test");
        assertThat(s.controller().isEnableControllerMode()).isFalse();
        assertThat(s.ha().getBrokerRole()).isEqualTo(BrokerRole.SLAVE);
    }
}
