package dev.wharf.common.message;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.store.commitlog.RecordEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageBatchDecoderTest {

    private static final int COUNT = 5;

    /** Five records back to back, as a pull answer carries them; {@code starts} receives each record's start. */
    private static byte[] batch(int[] starts) {
        RecordEncoder encoder = new RecordEncoder(4096);
        encoder.reset();
        for (int i = 0; i < COUNT; i++) {
            MessageExt msg = new MessageExt();
            msg.setTopic("Batch");
            msg.setBody(("body-" + i + "-" + "x".repeat(i * 7)).getBytes(StandardCharsets.UTF_8));
            assertThat(encoder.add(msg, MessageDecoder.encodeProperties(Map.of("KEYS", "k" + i))).name())
                    .isEqualTo("PUT_OK");
            encoder.patch(i, i, 1000L * i, 42L);
            starts[i] = encoder.recordStart(i);
        }
        ByteBuffer encoded = encoder.encoded();
        byte[] out = new byte[encoder.encodedSize()];
        encoded.duplicate().get(out);
        return out;
    }

    private static List<String> bodies(MessageBatchDecoder.Result result) {
        return result.messages().stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void intactBatchDecodesWhole() {
        MessageBatchDecoder.Result r = MessageBatchDecoder.decode(ByteBuffer.wrap(batch(new int[COUNT])), true, true);
        assertThat(r.isClean()).isTrue();
        assertThat(bodies(r)).hasSize(COUNT).first().isEqualTo("body-0-");
        assertThat(r.positions()).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void aDamagedBodyCostsOnlyItsRecord() {
        int[] starts = new int[COUNT];
        byte[] bytes = batch(starts);
        bytes[starts[2] + MessageRecord.BODY_OFFSET + 3] ^= 0x20;
        MessageBatchDecoder.Result r = MessageBatchDecoder.decode(ByteBuffer.wrap(bytes), true, true);
        assertThat(bodies(r)).containsExactly("body-0-", "body-1-" + "x".repeat(7), "body-3-" + "x".repeat(21),
                "body-4-" + "x".repeat(28));
        assertThat(r.problems()).singleElement().asString()
                .contains("record 2 at byte " + starts[2]).contains("body CRC mismatch").contains("skipped");
        // what the broker sends per record beside the batch (a pop's delivery counts) follows these positions
        assertThat(r.positions()).containsExactly(0, 1, 3, 4);
        assertThat(MessageDecoder.decodeAll(ByteBuffer.wrap(bytes), true, true)).hasSize(COUNT - 1);
    }

    @Test
    void brokenLengthsInsideARecordCostOnlyThatRecord() {
        int[] starts = new int[COUNT];
        byte[] bytes = batch(starts);
        int bodyLength = ByteBuffer.wrap(bytes).getInt(starts[1] + MessageRecord.BODY_LENGTH_OFFSET);
        // the topic length no longer fits the record, its total size still does
        bytes[starts[1] + MessageRecord.topicLengthOffset(bodyLength)] = (byte) 200;
        MessageBatchDecoder.Result r = MessageBatchDecoder.decode(ByteBuffer.wrap(bytes), true, true);
        assertThat(r.messages()).hasSize(COUNT - 1);
        assertThat(r.problems()).singleElement().asString().contains("record 1").contains("do not add up");
    }

    @Test
    void aBrokenSizeFieldStopsThereAndSaysSo() {
        int[] starts = new int[COUNT];
        byte[] bytes = batch(starts);
        ByteBuffer.wrap(bytes).putInt(starts[3], 5);
        MessageBatchDecoder.Result r = MessageBatchDecoder.decode(ByteBuffer.wrap(bytes), true, true);
        assertThat(r.messages()).hasSize(3);
        assertThat(r.problems()).singleElement().asString().contains("record 3 at byte " + starts[3])
                .contains("size field (5)").contains("the last " + (bytes.length - starts[3]) + " bytes");
    }

    @Test
    void aPlausibleButWrongSizeIsCaughtByWhatFollowsIt() {
        int[] starts = new int[COUNT];
        byte[] bytes = batch(starts);
        int size = starts[2] - starts[1];
        ByteBuffer.wrap(bytes).putInt(starts[1], size - 3);
        MessageBatchDecoder.Result r = MessageBatchDecoder.decode(ByteBuffer.wrap(bytes), true, true);
        assertThat(bodies(r)).containsExactly("body-0-");
        assertThat(r.problems()).singleElement().asString().contains("record 1").contains("size field");
    }

    @Test
    void aCompressedBodyThatCannotBeInflatedCostsOnlyItsRecord() {
        int[] starts = new int[COUNT];
        byte[] bytes = batch(starts);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        b.putInt(starts[4] + MessageRecord.SYS_FLAG_OFFSET, MessageSysFlag.COMPRESSED);
        MessageBatchDecoder.Result r = MessageBatchDecoder.decode(b, true, true);
        assertThat(r.messages()).hasSize(COUNT - 1);
        assertThat(r.problems()).singleElement().asString().contains("record 4");
    }
}
