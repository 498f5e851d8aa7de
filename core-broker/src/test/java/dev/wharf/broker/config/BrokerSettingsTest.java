package dev.wharf.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.store.FlushDiskType;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerSettingsTest {

    @TempDir
    Path dir;

    @Test
    void aFileBindsOntoTheBrokerStoreAndNetworkBeans() throws Exception {
        Path file = dir.resolve("broker.conf");
        Files.writeString(file, """
                # a RocketMQ-style broker.conf
                brokerName=broker-b
                brokerClusterName = ClusterB
                namesrvAddr=10.0.0.1:9876;10.0.0.2:9876
                listenPort=10921
                storePathRootDir=/var/lib/wharf/store
                flushDiskType=SYNC_FLUSH
                autoCreateTopicEnable=false
                defaultTopicQueueNums=16
                longPollingEnable=true
                """);
        BrokerSettings settings = BrokerSettings.load(file);
        assertThat(settings.broker().getBrokerName()).isEqualTo("broker-b");
        assertThat(settings.broker().getBrokerClusterName()).isEqualTo("ClusterB");
        assertThat(settings.broker().namesrvAddrList()).containsExactly("10.0.0.1:9876", "10.0.0.2:9876");
        assertThat(settings.broker().isAutoCreateTopicEnable()).isFalse();
        assertThat(settings.broker().getDefaultTopicQueueNums()).isEqualTo(16);
        assertThat(settings.netty().getListenPort()).isEqualTo(10921);
        assertThat(settings.store().getStorePathRootDir()).isEqualTo("/var/lib/wharf/store");
        assertThat(settings.store().getFlushDiskType()).isEqualTo(FlushDiskType.SYNC_FLUSH);
    }

    @Test
    void anUnknownKeyIsNamedWithAHintAndTheFile() throws Exception {
        Path file = dir.resolve("broker.conf");
        Files.writeString(file, "listenPortt=10911\nbrokerName=b\n");
        assertThatThrownBy(() -> BrokerSettings.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unknown setting \"listenPortt\" (did you mean \"listenPort\"?)")
                .hasMessageContaining(file.toString());
    }

    @Test
    void aBadValueIsNamedWithTheFile() throws Exception {
        Path file = dir.resolve("broker.conf");
        Files.writeString(file, "defaultTopicQueueNums=many\n");
        assertThatThrownBy(() -> BrokerSettings.load(file))
                .hasMessageContaining("defaultTopicQueueNums=many").hasMessageContaining(file.toString());
        Files.writeString(file, "defaultTopicQueueNums=0\nnamesrvAddr=localhost\n");
        assertThatThrownBy(() -> BrokerSettings.load(file))
                .hasMessageContaining("defaultTopicQueueNums is 0")
                .hasMessageContaining("namesrvAddr entry \"localhost\" is not host:port")
                .hasMessageContaining(file.toString());
    }

    @Test
    void aMissingFileIsNamed() {
        Path file = dir.resolve("nope.conf");
        assertThatThrownBy(() -> BrokerSettings.load(file)).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("nope.conf").hasMessageContaining("does not exist");
    }

    @Test
    void defaultsAreValidAndDelayLevelsParse() {
        BrokerConfig config = new BrokerConfig();
        config.validate();
        assertThat(config.schedule().delayLevelCount()).isEqualTo(18);
        assertThat(config.schedule().delayLevelMillis()[0]).isEqualTo(1_000);
        assertThat(config.schedule().delayLevelMillis()[17]).isEqualTo(7_200_000);
        assertThat(config.namesrvAddrList()).isEmpty();
        config.schedule().setMessageDelayLevel("1s 5x");
        assertThatThrownBy(config::validate).hasMessageContaining("\"5x\" (level 2)");
        config.schedule().setMessageDelayLevel("1s");
        config.setBrokerIP1("10.0.0.1:10911");
        assertThatThrownBy(config::validate).hasMessageContaining("brokerIP1");
    }

    @Test
    void settingsFromAMapNameTheirSource() {
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("brokerNam", "x"), "the command line"))
                .hasMessageContaining("\"brokerNam\"").hasMessageContaining("the command line")
                .hasMessageContaining("did you mean \"brokerName\"");
    }
}
