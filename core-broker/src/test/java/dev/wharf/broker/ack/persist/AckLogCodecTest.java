package dev.wharf.broker.ack.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.broker.ack.persist.AckLogRecord.DoneReason;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class AckLogCodecTest {

    @Test
    void everyKindRoundTrips() {
        List<AckLogRecord> records = List.of(
                AckLogRecord.init("g", "orders", 3, 42),
                AckLogRecord.pop("g", "orders", 3, new long[] {1, 5, 9}, new int[] {1, 2, 1}),
                AckLogRecord.ack("%DLQ%g", "%DLQ%g", 0, new long[] {7}),
                AckLogRecord.deliveries("g", "orders", 1, new long[] {4}, new int[] {0}),
                AckLogRecord.done("g", "orders", 2, DoneReason.EXPIRED, new long[] {10, 11}),
                AckLogRecord.delete("g", "orders"));
        for (AckLogRecord record : records) {
            byte[] bytes = AckLogCodec.encode(record);
            ByteBuffer padded = ByteBuffer.allocate(bytes.length + 5);
            padded.put(5, bytes);
            assertThat(AckLogCodec.decode(padded, 5, bytes.length)).isEqualTo(record);
        }
    }

    @Test
    void aPopOf32OffsetsIsCompact() {
        long[] offsets = new long[32];
        int[] counts = new int[32];
        assertThat(AckLogCodec.encode(AckLogRecord.pop("orders", "orders", 0, offsets, counts)).length)
                .isEqualTo(AckLogLayout.size(6, 6, 32, true)).isLessThan(420);
    }

    @Test
    void bytesOfAnotherShapeAreNotARecord() {
        byte[] bytes = AckLogCodec.encode(AckLogRecord.ack("g", "t", 0, new long[] {1, 2}));
        assertThat(AckLogCodec.decode(ByteBuffer.wrap(bytes), 0, bytes.length - 1)).isNull();
        bytes[0] = 9;
        assertThat(AckLogCodec.decode(ByteBuffer.wrap(bytes), 0, bytes.length)).isNull();
    }
}
