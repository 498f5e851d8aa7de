package dev.wharf.protocol.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Batch entries in RocketMQ's layout (with magic and CRC words) decode to the same entries as Wharf's. */
class RocketMqBatchLayoutTest {

    private static byte[] entry(int flag, byte[] body, String properties) {
        byte[] props = properties.getBytes(StandardCharsets.UTF_8);
        int total = 22 + body.length + props.length;
        return ByteBuffer.allocate(total).putInt(total).putInt(0).putInt(0).putInt(flag).putInt(body.length).put(body)
                .putShort((short) props.length).put(props).array();
    }

    @Test
    void entriesDecodeWithFlagBodyAndProperties() {
        byte[] a = entry(3, "one".getBytes(StandardCharsets.UTF_8), "TAGS\u0001x\u0002");
        byte[] b = entry(0, new byte[0], "");
        byte[] batch = ByteBuffer.allocate(a.length + b.length).put(a).put(b).array();

        List<BatchMessageCodec.Entry> entries = BatchMessageCodec.decodeRocketMq(batch);
        assertThat(entries).hasSize(2);
        assertThat(entries.get(0).flag()).isEqualTo(3);
        assertThat(entries.get(0).body()).isEqualTo("one".getBytes(StandardCharsets.UTF_8));
        assertThat(entries.get(0).properties()).isEqualTo("TAGS\u0001x\u0002");
        assertThat(entries.get(1).body()).isEmpty();
    }

    @Test
    void aTruncatedOrInconsistentEntryIsNamedByItsPosition() {
        byte[] a = entry(0, new byte[10], "k\u0001v\u0002");
        byte[] truncated = java.util.Arrays.copyOf(a, a.length - 3);
        assertThatThrownBy(() -> BatchMessageCodec.decodeRocketMq(truncated))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at byte 0");
        ByteBuffer.wrap(a).putInt(16, 11);
        assertThatThrownBy(() -> BatchMessageCodec.decodeRocketMq(a))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("inconsistent sizes");
    }
}
