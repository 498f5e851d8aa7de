package dev.wharf.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RemotingCommandCodecTest {

    /** Decodes a whole frame after checking and skipping its length prefix. */
    private static RemotingCommand roundTrip(RemotingCommand command) throws RemotingFrameException {
        ByteBuffer frame = RemotingCommandCodec.encode(command);
        assertThat(frame.getInt(0)).isEqualTo(frame.remaining() - RemotingFrameDescriptor.LENGTH_FIELD_LENGTH);
        return RemotingCommandCodec.decode(frame.position(RemotingFrameDescriptor.LENGTH_FIELD_LENGTH));
    }

    /** A frame without its length prefix: header-length word, header, body. */
    private static ByteBuffer frame(int serializeType, byte[] header, byte[] body) {
        ByteBuffer buffer = ByteBuffer.allocate(4 + header.length + body.length);
        buffer.putInt(RemotingFrameDescriptor.headerLengthWord(serializeType, header.length)).put(header).put(body);
        return buffer.flip();
    }

    private static ByteBuffer jsonFrame(String json) {
        return frame(0, json.getBytes(StandardCharsets.UTF_8), new byte[0]);
    }

    @Test
    void roundTripsEveryHeaderFieldAndTheBody() throws Exception {
        RemotingCommand request = RemotingCommand.createRequest(RequestCode.PULL_MESSAGE)
                .setLanguage("GO")
                .setVersion(453)
                .setFlag(0b110)
                .setRemark("r\u00e9mark with \"quotes\", \\ and \n newline")
                .putExt("topic", "Orders")
                .putExt("queueId", 3)
                .putExt("unicode", "\u65e5\u672c")
                .setBody(new byte[] {0, 1, 2, (byte) 0xFF});

        RemotingCommand decoded = roundTrip(request);

        assertThat(decoded.code()).isEqualTo(RequestCode.PULL_MESSAGE);
        assertThat(decoded.language()).isEqualTo("GO");
        assertThat(decoded.version()).isEqualTo(453);
        assertThat(decoded.opaque()).isEqualTo(request.opaque());
        assertThat(decoded.flag()).isEqualTo(0b110);
        assertThat(decoded.isOneway()).isTrue();
        assertThat(decoded.isResponse()).isFalse();
        assertThat(decoded.remark()).isEqualTo(request.remark());
        assertThat(decoded.extFields()).containsExactlyInAnyOrderEntriesOf(
                Map.of("topic", "Orders", "queueId", "3", "unicode", "\u65e5\u672c"));
        assertThat(decoded.body()).containsExactly(0, 1, 2, 0xFF);
    }

    @Test
    void roundTripsAResponseWithoutRemarkExtOrBody() throws Exception {
        RemotingCommand response = RemotingCommand.createResponse(ResponseCode.SUCCESS, null).setOpaque(-7);

        RemotingCommand decoded = roundTrip(response);

        assertThat(decoded.isResponse()).isTrue();
        assertThat(decoded.opaque()).isEqualTo(-7);
        assertThat(decoded.remark()).isNull();
        assertThat(decoded.extFields()).isEmpty();
        assertThat(decoded.body()).isNull();
        assertThat(decoded.language()).isEqualTo(RemotingCommand.DEFAULT_LANGUAGE);
    }

    @Test
    void encodesBodyBuffersInOrder() throws Exception {
        ByteBuffer a = ByteBuffer.allocateDirect(3).put(new byte[] {1, 2, 3}).flip();
        ByteBuffer b = ByteBuffer.wrap(new byte[] {9, 4, 5, 9}, 1, 2);
        RemotingCommand response = RemotingCommand.createResponse(ResponseCode.SUCCESS, null)
                .setBodyBuffers(List.of(a, b), null);

        assertThat(roundTrip(response).body()).containsExactly(1, 2, 3, 4, 5);
        assertThat(a.position()).isZero();
        assertThat(b.position()).isEqualTo(1);
    }

    @Test
    void headerIsPlainJsonWithTheDocumentedProperties() {
        RemotingCommand request = RemotingCommand.createRequest(RequestCode.SEND_MESSAGE).putExt("k", "v");

        String json = new String(RemotingCommandCodec.encodeHeader(request), StandardCharsets.UTF_8);

        assertThat(json).startsWith("{\"code\":10,\"language\":\"JAVA\",\"version\":0,\"opaque\":"
                + request.opaque() + ",\"flag\":0").endsWith(",\"extFields\":{\"k\":\"v\"}}");
    }

    @Test
    void ignoresUnknownPropertiesAndReadsTheRocketMqShape() throws Exception {
        String json = "{\"code\":34,\"extFields\":{\"a\":\"1\",\"n\":5,\"b\":true,\"z\":null},\"flag\":0,"
                + "\"language\":\"JAVA\",\"opaque\":42,\"serializeTypeCurrentRPC\":\"JSON\","
                + "\"nested\":{\"x\":[1,{\"y\":2}],\"w\":null},\"list\":[\"q\"],\"version\":395}";

        RemotingCommand decoded = RemotingCommandCodec.decode(jsonFrame(json));

        assertThat(decoded.code()).isEqualTo(RequestCode.HEART_BEAT);
        assertThat(decoded.opaque()).isEqualTo(42);
        assertThat(decoded.version()).isEqualTo(395);
        assertThat(decoded.extFields()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "n", "5", "b", "true"));
    }

    @Test
    void decodesFromADirectBufferAtAnOffsetWithoutMovingIt() throws Exception {
        ByteBuffer heap = RemotingCommandCodec.encode(RemotingCommand.createRequest(11).setBody(new byte[] {7}));
        ByteBuffer direct = ByteBuffer.allocateDirect(heap.remaining() + 10);
        direct.position(10);
        direct.put(heap).position(10 + RemotingFrameDescriptor.LENGTH_FIELD_LENGTH);

        RemotingCommand decoded = RemotingCommandCodec.decode(direct);

        assertThat(decoded.code()).isEqualTo(11);
        assertThat(decoded.body()).containsExactly(7);
        assertThat(direct.position()).isEqualTo(14);
    }

    @Test
    void rejectsAFrameTooShortForTheHeaderLengthWord() {
        assertThatThrownBy(() -> RemotingCommandCodec.decode(ByteBuffer.allocate(3)))
                .isInstanceOf(RemotingFrameException.class)
                .hasMessageContaining("too short")
                .satisfies(e -> assertThat(((RemotingFrameException) e).hasOpaque()).isFalse());
    }

    @Test
    void rejectsAHeaderLengthLargerThanTheFrame() {
        ByteBuffer frame = ByteBuffer.allocate(10).putInt(RemotingFrameDescriptor.headerLengthWord(0, 100)).flip();
        frame.limit(10);

        assertThatThrownBy(() -> RemotingCommandCodec.decode(frame))
                .isInstanceOf(RemotingFrameException.class)
                .hasMessageContaining("header length 100 exceeds the 6 bytes");
    }

    @Test
    void rejectsUnknownSerializeTypes() {
        assertThatThrownBy(() -> RemotingCommandCodec.decode(frame(7, "{}".getBytes(), new byte[0])))
                .isInstanceOf(RemotingFrameException.class)
                .hasMessageContaining("serialize type 7 is not supported");
    }

    @Test
    void aTruncatedRocketMqBinaryHeaderIsAnsweredWithItsOpaque() {
        ByteBuffer binary = ByteBuffer.allocate(13).putShort((short) 10).put((byte) 0).putShort((short) 1)
                .putInt(99).putInt(0).flip();
        byte[] header = new byte[13];
        binary.get(header);

        assertThatThrownBy(() -> RemotingCommandCodec.decode(frame(1, header, new byte[0])))
                .isInstanceOfSatisfying(RemotingFrameException.class, e -> {
                    assertThat(e.getMessage()).contains("binary").contains("at least 21 bytes");
                    assertThat(e.hasOpaque()).isTrue();
                    assertThat(e.opaque()).isEqualTo(99);
                    assertThat(e.isAnswerableRequest()).isTrue();
                });
    }

    /** A header as RocketMQ's binary encoder lays it out, field by field. */
    private static byte[] rocketMqBinaryHeader(int code, int language, int version, int opaque, int flag,
                                               String remark, String... keysAndValues) {
        ByteBuffer fields = ByteBuffer.allocate(4096);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            byte[] k = keysAndValues[i].getBytes(StandardCharsets.UTF_8);
            byte[] v = keysAndValues[i + 1].getBytes(StandardCharsets.UTF_8);
            fields.putShort((short) k.length).put(k).putInt(v.length).put(v);
        }
        fields.flip();
        byte[] r = remark == null ? new byte[0] : remark.getBytes(StandardCharsets.UTF_8);
        ByteBuffer h = ByteBuffer.allocate(21 + r.length + fields.remaining());
        h.putShort((short) code).put((byte) language).putShort((short) version).putInt(opaque).putInt(flag)
                .putInt(r.length).put(r).putInt(fields.remaining()).put(fields);
        return h.array();
    }

    @Test
    void theBinaryHeaderRefusesACodeBeyondSixteenBitsInsteadOfCuttingIt() {
        RemotingCommand wide = RemotingCommand.createRequest(RequestCode.POP_MESSAGE)
                .setSerializeType(RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ);

        assertThat(BinaryHeaderCodec.canCarry(wide)).isFalse();
        assertThat(BinaryHeaderCodec.canCarry(RemotingCommand.createRequest(RequestCode.SEND_MESSAGE_V2))).isTrue();
        assertThatThrownBy(() -> RemotingCommandCodec.encode(wide))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has code " + RequestCode.POP_MESSAGE)
                .hasMessageContaining("send it in JSON");
    }

    @Test
    void readsRocketMqBinaryHeadersAndWritesTheAnswerInKind() throws Exception {
        byte[] header = rocketMqBinaryHeader(RequestCode.SEND_MESSAGE_V2, 9, 475, 41, 0, "hi \u00e9",
                "a", "pg", "b", "Orders", "e", "3");
        RemotingCommand request = RemotingCommandCodec.decode(frame(1, header, new byte[] {7, 8}));

        assertThat(request.code()).isEqualTo(RequestCode.SEND_MESSAGE_V2);
        assertThat(request.language()).isEqualTo("GO");
        assertThat(request.version()).isEqualTo(475);
        assertThat(request.opaque()).isEqualTo(41);
        assertThat(request.remark()).isEqualTo("hi \u00e9");
        assertThat(request.extFields()).containsExactlyInAnyOrderEntriesOf(
                java.util.Map.of("a", "pg", "b", "Orders", "e", "3"));
        assertThat(request.body()).containsExactly(7, 8);
        assertThat(request.serializeType()).isEqualTo(RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ);

        RemotingCommand response = request.newResponse(ResponseCode.SUCCESS, null).putExt("msgId", "ABC");
        ByteBuffer wire = RemotingCommandCodec.encode(response);
        assertThat(RemotingFrameDescriptor.serializeType(wire.getInt(4)))
                .isEqualTo(RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ);
        byte[] written = new byte[RemotingFrameDescriptor.headerLength(wire.getInt(4))];
        wire.get(8, written);
        assertThat(written).isEqualTo(rocketMqBinaryHeader(ResponseCode.SUCCESS, 0, 0, 41, 1, null, "msgId", "ABC"));
        RemotingCommand back = roundTrip(response);
        assertThat(back.isResponse()).isTrue();
        assertThat(back.ext("msgId")).isEqualTo("ABC");
    }

    @Test
    void rejectsBinaryHeadersWhoseLengthsDoNotAddUp() {
        byte[] good = rocketMqBinaryHeader(10, 0, 1, 5, 0, null, "k", "v");
        byte[] badFieldLength = good.clone();
        ByteBuffer.wrap(badFieldLength).putInt(17, 99);
        assertThatThrownBy(() -> RemotingCommandCodec.decode(frame(1, badFieldLength, new byte[0])))
                .isInstanceOfSatisfying(RemotingFrameException.class, e -> {
                    assertThat(e.getMessage()).contains("extension fields take 99 bytes");
                    assertThat(e.opaque()).isEqualTo(5);
                });
        byte[] badValueLength = good.clone();
        ByteBuffer.wrap(badValueLength).putInt(21 + 2 + 1, 1_000);
        assertThatThrownBy(() -> RemotingCommandCodec.decode(frame(1, badValueLength, new byte[0])))
                .hasMessageContaining("extension field 'k'");
        byte[] badRemark = good.clone();
        ByteBuffer.wrap(badRemark).putInt(13, -3);
        assertThatThrownBy(() -> RemotingCommandCodec.decode(frame(1, badRemark, new byte[0])))
                .hasMessageContaining("remark length -3");
    }

    @Test
    void rejectsHeadersThatAreNotJson() {
        assertThatThrownBy(() -> RemotingCommandCodec.decode(jsonFrame("{\"code\":1,\"opaque\":")))
                .isInstanceOf(RemotingFrameException.class)
                .hasMessageContaining("header JSON does not parse");
        assertThatThrownBy(() -> RemotingCommandCodec.decode(jsonFrame("[1,2]")))
                .hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> RemotingCommandCodec.decode(frame(0, new byte[] {(byte) 0xC3, 0x28}, new byte[0])))
                .isInstanceOf(RemotingFrameException.class);
        assertThatThrownBy(() -> RemotingCommandCodec.decode(jsonFrame("{\"code\":1} {}")))
                .hasMessageContaining("after the header");
        assertThatThrownBy(() -> RemotingCommandCodec.decode(frame(0, new byte[0], new byte[] {1})))
                .hasMessageContaining("header length is 0");
    }

    @Test
    void reportsABadPropertyWithTheOpaqueWhenItCouldBeRead() {
        assertThatThrownBy(() -> RemotingCommandCodec.decode(jsonFrame("{\"code\":\"ten\",\"opaque\":5,\"flag\":0}")))
                .isInstanceOfSatisfying(RemotingFrameException.class, e -> {
                    assertThat(e.getMessage()).contains("'code'").contains("'ten'");
                    assertThat(e.opaque()).isEqualTo(5);
                    assertThat(e.isAnswerableRequest()).isTrue();
                });
        assertThatThrownBy(() -> RemotingCommandCodec.decode(jsonFrame("{\"opaque\":5,\"flag\":1}")))
                .isInstanceOfSatisfying(RemotingFrameException.class, e -> {
                    assertThat(e.getMessage()).contains("no 'code'");
                    assertThat(e.isAnswerableRequest()).isFalse();
                });
        assertThatThrownBy(() -> RemotingCommandCodec.decode(jsonFrame("{\"code\":1,\"opaque\":3000000000}")))
                .hasMessageContaining("'opaque' must be a 32-bit integer");
        assertThatThrownBy(() -> RemotingCommandCodec.decode(jsonFrame("{\"code\":1,\"extFields\":{\"a\":[1]}}")))
                .hasMessageContaining("extFields value 'a' must be a string, but is an array");
        assertThatThrownBy(() -> RemotingCommandCodec.decode(jsonFrame("{\"code\":1,\"remark\":{}}")))
                .hasMessageContaining("'remark' must be a string");
    }
}
