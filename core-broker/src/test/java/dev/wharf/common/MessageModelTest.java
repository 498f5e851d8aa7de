package dev.wharf.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageId;
import dev.wharf.common.message.UniqueIdGenerator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MessageModelTest {

    @Test
    void propertiesRoundTripAndLookup() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("KEYS", "order-1 order-2");
        props.put("TAGS", "created");
        props.put("empty", "");
        String encoded = MessageDecoder.encodeProperties(props);
        assertThat(MessageDecoder.decodeProperties(encoded)).isEqualTo(props);
        assertThat(MessageDecoder.findProperty(encoded, "TAGS")).isEqualTo("created");
        assertThat(MessageDecoder.findProperty(encoded, "TAG")).isNull();
        assertThat(MessageDecoder.findProperty(encoded, "empty")).isEmpty();
    }

    @Test
    void separatorsInPropertiesAreRejectedWithTheKeyNamed() {
        assertThat(MessageDecoder.checkProperties(Map.of("a\u0001b", "v"))).contains("a\\u0001b");
        assertThat(MessageDecoder.checkProperties(Map.of("color", "re\u0002d"))).contains("\"color\"");
        assertThat(MessageDecoder.checkProperties(Map.of("ok", "fine"))).isNull();
    }

    @Test
    void messageIdEncodesHostAndOffset() {
        long host = HostAddress.pack(new byte[] {127, 0, 0, 1}, 10911);
        String id = MessageId.create(host, 123_456_789_012L);
        assertThat(id).hasSize(32);
        assertThat(MessageId.storeHost(id)).isEqualTo(host);
        assertThat(MessageId.commitLogOffset(id)).isEqualTo(123_456_789_012L);
        assertThat(HostAddress.toString(host)).isEqualTo("127.0.0.1:10911");
        assertThatThrownBy(() -> MessageId.commitLogOffset("xyz")).hasMessageContaining("32 hexadecimal");
    }

    @Test
    void uniqueIdsDoNotRepeat() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            assertThat(ids.add(UniqueIdGenerator.next())).isTrue();
        }
    }

    @Test
    void topicNamesAreValidated() {
        assertThat(TopicValidator.check("orders.v1-%RETRY%_x|y")).isNull();
        assertThat(TopicValidator.check("bad topic")).contains("position 4");
        assertThat(TopicValidator.check("")).contains("empty");
        assertThat(TopicValidator.check("a".repeat(128))).contains("128 bytes");
        assertThat(TopicValidator.check("a".repeat(127))).isNull();
        assertThat(TopicValidator.check("..")).contains("reserved");
        assertThat(TopicValidator.check(".")).contains("reserved");
        assertThat(TopicValidator.check("a..b")).isNull();
        assertThatThrownBy(() -> TopicValidator.validate("a/b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'/'");
    }

    @Test
    void deflateRoundTrip() {
        byte[] body = "hello hello hello hello hello".repeat(200).getBytes();
        byte[] packed = MessageDecoder.deflate(body, 5);
        assertThat(packed.length).isLessThan(body.length);
        assertThat(MessageDecoder.inflate(packed)).isEqualTo(body);
    }
}
