package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BatchMessageCodec;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compression bits of sysFlag travel untouched from producer to consumer: RocketMQ 5.x clients name the codec
 * in bits 8-10 and drop a message whose flag names a codec other than the one used.
 */
class CompressionFlagTest {

    @TempDir
    Path dir;

    private Broker broker;
    private ProtocolClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerFixture.start(dir);
        client = new ProtocolClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.shutdown();
    }

    private static byte[] text(int size) {
        byte[] body = new byte[size];
        for (int i = 0; i < size; i++) {
            body[i] = (byte) ('a' + i % 23);
        }
        return body;
    }

    private RemotingCommand send(String topic, int sysFlag, byte[] body) throws Exception {
        SendMessageRequest header = new SendMessageRequest("pg", topic, 4, 0, sysFlag, System.currentTimeMillis(), 0,
                "", 0, null, false);
        return client.invoke(RequestCode.SEND_MESSAGE, header, body);
    }

    /** The stored record of queue 0 at {@code offset}, sysFlag as stored (not inflated). */
    private MessageExt storedAt(String topic, long offset) {
        RemotingCommand[] pulled = new RemotingCommand[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            pulled[0] = client.pull("g", topic, 0, offset, 1, "*", "TAG");
            return pulled[0].code() == ResponseCode.SUCCESS;
        });
        return MessageDecoder.decodeAll(ByteBuffer.wrap(pulled[0].body()), true, false).get(0);
    }

    @Test
    void aZlibTypedBodyIsStoredWithItsTypeBitsAndTheNextMessageIsVisible() throws Exception {
        byte[] body = text(10 * 1024);
        int flag = MessageSysFlag.COMPRESSED | MessageSysFlag.COMPRESSION_ZLIB;
        assertThat(send("Zlib5", flag, MessageDecoder.deflate(body, 5)).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(send("Zlib5", 0, "after".getBytes(StandardCharsets.UTF_8)).code()).isEqualTo(ResponseCode.SUCCESS);

        MessageExt stored = storedAt("Zlib5", 0);
        assertThat(stored.getSysFlag() & (MessageSysFlag.COMPRESSED | MessageSysFlag.COMPRESSION_TYPE_MASK))
                .as("flag and codec as the producer sent them").isEqualTo(flag);
        assertThat(MessageSysFlag.batchContinues(stored.getSysFlag())).isFalse();
        assertThat(MessageDecoder.inflate(stored.getBody())).isEqualTo(body);
        // a zlib type is not mistaken for an unfinished batch: the message after it is dispatched too
        assertThat(storedAt("Zlib5", 1).getBody()).isEqualTo("after".getBytes(StandardCharsets.UTF_8));
        // Wharf's own decoding inflates it and clears both the flag and the codec
        List<MessageExt> inflated = ProtocolClient.messages(client.pull("g", "Zlib5", 0, 0, 1, "*", "TAG"));
        assertThat(inflated.get(0).getBody()).isEqualTo(body);
        assertThat(inflated.get(0).getSysFlag() & (MessageSysFlag.COMPRESSED | MessageSysFlag.COMPRESSION_TYPE_MASK))
                .isZero();
    }

    @Test
    void anUntypedZlibBodyKeepsTypeZeroWhichEveryClientReadsAsZlib() throws Exception {
        byte[] body = text(6000);
        assertThat(send("Zlib0", MessageSysFlag.COMPRESSED, MessageDecoder.deflate(body, 5)).code())
                .isEqualTo(ResponseCode.SUCCESS);
        MessageExt stored = storedAt("Zlib0", 0);
        assertThat(stored.getSysFlag() & (MessageSysFlag.COMPRESSED | MessageSysFlag.COMPRESSION_TYPE_MASK))
                .isEqualTo(MessageSysFlag.COMPRESSED);
    }

    @Test
    void bodiesOfACodecWharfCannotReadAreRefusedWithTheSetting() throws Exception {
        RemotingCommand lz4 = send("Lz4", MessageSysFlag.COMPRESSED | MessageSysFlag.COMPRESSION_LZ4, text(100));
        assertThat(lz4.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(lz4.remark()).contains("LZ4", "zlib", "compressType");
    }

    @Test
    void layoutBitsOfTheProducerAreNotStoredButBatchRecordsDoNotCarryACodec() throws Exception {
        int layout = MessageSysFlag.BORN_HOST_V6 | MessageSysFlag.STORE_HOST_V6 | MessageSysFlag.ROCKETMQ_BATCH_CQ_MASK
                | MessageSysFlag.INNER_BATCH_CONTINUES;
        assertThat(send("Layout", layout, new byte[] {1}).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(storedAt("Layout", 0).getSysFlag()).isZero();

        SendMessageRequest header = new SendMessageRequest("pg", "Batched", 4, 0, 0, System.currentTimeMillis(), 0,
                "", 0, null, true);
        byte[] entries = BatchMessageCodec.encode(List.of(new Message("Batched", new byte[] {1}),
                new Message("Batched", new byte[] {2})));
        assertThat(client.invoke(RequestCode.SEND_BATCH_MESSAGE, header, entries).code())
                .isEqualTo(ResponseCode.SUCCESS);
        MessageExt first = storedAt("Batched", 0);
        assertThat(MessageSysFlag.batchContinues(first.getSysFlag())).isTrue();
        assertThat(first.getSysFlag() & MessageSysFlag.COMPRESSION_TYPE_MASK).as("no codec named").isZero();
        assertThat(MessageSysFlag.batchContinues(storedAt("Batched", 1).getSysFlag())).isFalse();
    }
}
