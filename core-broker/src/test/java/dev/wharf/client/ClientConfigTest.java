package dev.wharf.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClientConfigTest {

    @Test
    void clientIdIsIpAndInstanceNameWithThePidForTheDefault() {
        ClientConfig config = new ClientConfig();
        config.setClientIP("10.1.2.3");
        assertThat(config.buildClientId()).isEqualTo("10.1.2.3@" + ProcessHandle.current().pid());
        config.setInstanceName("orders-1");
        assertThat(config.buildClientId()).isEqualTo("10.1.2.3@orders-1");
        ClientConfig copy = config.copy();
        config.setInstanceName("other");
        assertThat(copy.buildClientId()).isEqualTo("10.1.2.3@orders-1");
    }

    @Test
    void badSettingsAreNamed() {
        ClientConfig config = new ClientConfig();
        assertThatThrownBy(() -> config.setInstanceName("a@b")).hasMessageContaining("'@'");
        assertThatThrownBy(() -> config.setInstanceName(" ")).hasMessageContaining("instanceName");
        assertThatThrownBy(() -> config.setMqClientApiTimeout(0)).hasMessageContaining("mqClientApiTimeout");
        assertThatThrownBy(() -> config.setPollNameServerInterval(1)).hasMessageContaining("pollNameServerInterval");
    }

    @Test
    void oneClientIdCannotServeTwoNameServerSettings() throws Exception {
        ClientConfig a = new ClientConfig();
        a.setInstanceName("shared-" + System.nanoTime());
        a.setNamesrvAddr("127.0.0.1:1");
        ClientConfig b = a.copy();
        b.setNamesrvAddr("127.0.0.1:2");
        var instance = dev.wharf.client.impl.ClientInstance.acquire(a);
        try {
            assertThat(dev.wharf.client.impl.ClientInstance.acquire(a.copy())).isSameAs(instance);
            instance.release();
            assertThatThrownBy(() -> dev.wharf.client.impl.ClientInstance.acquire(b))
                    .isInstanceOf(ClientException.class).hasMessageContaining("instanceName");
        } finally {
            instance.release();
        }
    }
}
