package dev.wharf.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.common.config.SettingsPart;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BeanBinderTest {

    public enum Mode { ASYNC_FLUSH, SYNC_FLUSH }

    public static class Settings {
        private int listenPort = 10911;
        private boolean autoCreateTopicEnable = true;
        private Mode flushDiskType = Mode.ASYNC_FLUSH;
        private String brokerName = "broker-a";
        private long fileReservedTime = 72;

        public int getListenPort() { return listenPort; }
        public void setListenPort(int v) { listenPort = v; }
        public boolean isAutoCreateTopicEnable() { return autoCreateTopicEnable; }
        public void setAutoCreateTopicEnable(boolean v) { autoCreateTopicEnable = v; }
        public Mode getFlushDiskType() { return flushDiskType; }
        public void setFlushDiskType(Mode v) { flushDiskType = v; }
        public String getBrokerName() { return brokerName; }
        public void setBrokerName(String v) { brokerName = v; }
        public long getFileReservedTime() { return fileReservedTime; }
        public void setFileReservedTime(long v) {
            if (v <= 0) {
                throw new IllegalArgumentException("fileReservedTime must be positive");
            }
            fileReservedTime = v;
        }
    }

    @Test
    void bindsByNameAndReportsUnknownKeysWithAHint() {
        Settings s = new Settings();
        Map<String, String> in = new LinkedHashMap<>();
        in.put("listenPort", "0");
        in.put("flushDiskType", "sync_flush");
        in.put("autoCreateTopicEnable", "false");
        in.put("listenPortt", "1");
        assertThat(BeanBinder.bind(in, s)).containsExactly("listenPortt");
        assertThat(s.getListenPort()).isZero();
        assertThat(s.getFlushDiskType()).isEqualTo(Mode.SYNC_FLUSH);
        assertThat(s.isAutoCreateTopicEnable()).isFalse();
        assertThatThrownBy(() -> BeanBinder.bindStrict(in, "broker.conf", s))
                .hasMessageContaining("\"listenPortt\" (did you mean \"listenPort\"?)").hasMessageContaining("broker.conf");
    }

    @Test
    void badValuesNameKeyValueAndForm() {
        Settings s = new Settings();
        assertThatThrownBy(() -> BeanBinder.bind(Map.of("listenPort", "ten"), s)).hasMessageContaining("listenPort=ten")
                .hasMessageContaining("int");
        assertThatThrownBy(() -> BeanBinder.bind(Map.of("flushDiskType", "FAST"), s))
                .hasMessageContaining("ASYNC_FLUSH, SYNC_FLUSH");
        assertThatThrownBy(() -> BeanBinder.bind(Map.of("autoCreateTopicEnable", "yes"), s)).hasMessageContaining("boolean");
        assertThatThrownBy(() -> BeanBinder.bind(Map.of("fileReservedTime", "-1"), s)).hasMessageContaining("must be positive");
    }

    @Test
    void readsEffectiveConfiguration() {
        assertThat(BeanBinder.read(new Settings())).containsEntry("brokerName", "broker-a").containsEntry("listenPort", "10911");
        assertThat(BeanBinder.keys(Settings.class)).contains("flushDiskType", "autoCreateTopicEnable");
    }

    public static class Pools {
        private int sendMessageThreadPoolNums = 4;

        public int getSendMessageThreadPoolNums() { return sendMessageThreadPoolNums; }
        public void setSendMessageThreadPoolNums(int v) { sendMessageThreadPoolNums = v; }
    }

    public static class Holder extends Settings {
        private final Pools pools = new Pools();

        @SettingsPart
        public Pools pools() { return pools; }
    }

    public static class Clash extends Settings {
        private final Settings other = new Settings();

        @SettingsPart
        public Settings other() { return other; }
    }

    @Test
    void keysOfAPartBindListAndReadAsTheHoldersOwn() {
        Holder h = new Holder();
        assertThat(BeanBinder.bind(Map.of("sendMessageThreadPoolNums", "2", "listenPort", "1"), h)).isEmpty();
        assertThat(h.pools().getSendMessageThreadPoolNums()).isEqualTo(2);
        assertThat(h.getListenPort()).isEqualTo(1);
        assertThat(BeanBinder.keys(Holder.class)).contains("sendMessageThreadPoolNums", "listenPort");
        assertThat(BeanBinder.read(h)).containsEntry("sendMessageThreadPoolNums", "2").containsEntry("listenPort", "1");
        assertThatThrownBy(() -> BeanBinder.bindStrict(Map.of("sendMessageThreadPoolNum", "2"), "broker.conf", h))
                .hasMessageContaining("did you mean \"sendMessageThreadPoolNums\"");
    }

    @Test
    void aKeyDeclaredTwiceInOneHolderIsAProgrammingError() {
        assertThatThrownBy(() -> BeanBinder.keys(Clash.class)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("declared twice");
    }
}
