package dev.wharf.jms.message.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.StreamCorruptedException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The typed map/stream body layout: exact round trips, the documented bytes, and damage detection. */
class TypedBodyCodecTest {

    private static final List<Object> EVERY_TYPE = Arrays.asList(null, true, false, (byte) -1, (short) -2, '\u00e9',
            -3, -4L, Float.intBitsToFloat(0x7fc00001), -0.0d, "", "\u0000 \ud800 \u20ac x", new byte[0],
            new byte[] {1, 2});

    @Test
    void streamsRoundTripEveryTypeBitForBit() throws Exception {
        List<Object> back = TypedValueReader.decodeStream(TypedValueWriter.encodeStream(EVERY_TYPE));
        assertThat(back).hasSize(EVERY_TYPE.size());
        for (int i = 0; i < EVERY_TYPE.size(); i++) {
            Object v = EVERY_TYPE.get(i);
            if (v instanceof Float f) {
                assertThat(Float.floatToRawIntBits((Float) back.get(i))).isEqualTo(Float.floatToRawIntBits(f));
            } else if (v instanceof Double d) {
                assertThat(Double.doubleToRawLongBits((Double) back.get(i))).isEqualTo(Double.doubleToRawLongBits(d));
            } else {
                assertThat(back.get(i)).isEqualTo(v);
            }
        }
    }

    @Test
    void mapsKeepOrderAndNames() throws Exception {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("z", 1);
        map.put("", "empty name");
        map.put("\u0000", null);
        map.put("a".repeat(70_000), "long name");
        assertThat(TypedValueReader.decodeMap(TypedValueWriter.encodeMap(map))).containsExactlyEntriesOf(map);
    }

    @Test
    void theLayoutIsTheDocumentedOne() {
        byte[] bytes = TypedValueWriter.encodeStream(Arrays.asList(7, "\u0000A", null));
        assertThat(bytes).containsExactly(
                TypedBodyDescriptor.VERSION, 0, 0, 0, 3,
                TypedBodyDescriptor.TYPE_INT, 0, 0, 0, 7,
                TypedBodyDescriptor.TYPE_STRING, 0, 0, 0, 3, (byte) 0xC0, (byte) 0x80, 'A',
                TypedBodyDescriptor.TYPE_NULL);
        byte[] map = TypedValueWriter.encodeMap(Map.of("k", true));
        assertThat(map).containsExactly(TypedBodyDescriptor.VERSION, 0, 0, 0, 1, 0, 0, 0, 1, 'k',
                TypedBodyDescriptor.TYPE_BOOLEAN, 1);
        assertThat(TypedBodyDescriptor.fixedPayloadSize(TypedBodyDescriptor.TYPE_DOUBLE)).isEqualTo(8);
        assertThat(TypedBodyDescriptor.fixedPayloadSize(TypedBodyDescriptor.TYPE_STRING)).isEqualTo(-1);
    }

    @Test
    void emptyBodiesReadAsEmpty() throws Exception {
        assertThat(TypedValueReader.decodeMap(new byte[0])).isEmpty();
        assertThat(TypedValueReader.decodeStream(null)).isEmpty();
        assertThat(TypedValueReader.decodeStream(TypedValueWriter.encodeStream(List.of()))).isEmpty();
    }

    @Test
    void damageIsDetected() {
        byte[] good = TypedValueWriter.encodeStream(List.of(1, "abc"));
        assertThatThrownBy(() -> TypedValueReader.decodeStream(Arrays.copyOf(good, good.length - 1)))
                .isInstanceOf(EOFException.class);
        byte[] version = good.clone();
        version[0] = 2;
        assertThatThrownBy(() -> TypedValueReader.decodeStream(version)).isInstanceOf(StreamCorruptedException.class)
                .hasMessageContaining("version 2");
        byte[] type = good.clone();
        type[5] = 42;
        assertThatThrownBy(() -> TypedValueReader.decodeStream(type)).isInstanceOf(StreamCorruptedException.class)
                .hasMessageContaining("type 42");
        byte[] count = good.clone();
        count[1] = 0x7f;
        assertThatThrownBy(() -> TypedValueReader.decodeStream(count)).isInstanceOf(StreamCorruptedException.class)
                .hasMessageContaining("entries");
        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> TypedValueReader.decodeStream(trailing))
                .isInstanceOf(StreamCorruptedException.class).hasMessageContaining("unexpected bytes");
        byte[] length = good.clone();
        length[13] = 100;
        assertThatThrownBy(() -> TypedValueReader.decodeStream(length)).isInstanceOf(EOFException.class)
                .hasMessageContaining("exceeds");
        length[11] = (byte) 0x80;
        assertThatThrownBy(() -> TypedValueReader.decodeStream(length)).isInstanceOf(StreamCorruptedException.class)
                .hasMessageContaining("Negative");
        byte[] utf = TypedValueWriter.encodeStream(List.of("\u00e9"));
        utf[utf.length - 1] = 0x41;
        assertThatThrownBy(() -> TypedValueReader.decodeStream(utf)).isInstanceOf(StreamCorruptedException.class)
                .hasMessageContaining("Malformed");
        byte[] bool = TypedValueWriter.encodeStream(List.of(true));
        bool[bool.length - 1] = 2;
        assertThatThrownBy(() -> TypedValueReader.decodeStream(bool)).isInstanceOf(StreamCorruptedException.class);
    }

    @Test
    void randomBytesNeverEscapeAsAnythingButIoExceptions() {
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            byte[] junk = new byte[random.nextInt(40)];
            random.nextBytes(junk);
            if (junk.length > 0) {
                junk[0] = TypedBodyDescriptor.VERSION;
            }
            assertThatCode(() -> {
                try {
                    TypedValueReader.decodeMap(junk);
                } catch (java.io.IOException expected) {
                    // damage reported the documented way
                }
                try {
                    TypedValueReader.decodeStream(junk);
                } catch (java.io.IOException expected) {
                    // damage reported the documented way
                }
            }).as(Arrays.toString(junk)).doesNotThrowAnyException();
        }
    }

    @Test
    void unsupportedValuesAreRefusedByTheWriter() {
        assertThatThrownBy(() -> TypedValueWriter.encodeStream(List.of(new Object())))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
