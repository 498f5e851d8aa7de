package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.readAll;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreBadInputTest {

    @TempDir
    Path dir;

    private DefaultMessageStore store;

    @BeforeEach
    void setUp() throws IOException {
        store = new DefaultMessageStore(smallConfig(dir));
        store.start();
    }

    @AfterEach
    void tearDown() {
        store.shutdown();
    }

    private void assertRejected(MessageToStore msg, PutMessageStatus status, String because) {
        PutMessageResult result = store.putMessage(msg);
        assertThat(result.status()).isEqualTo(status);
        assertThat(result.isOk()).isFalse();
        assertThat(result.appendResult()).isNull();
        assertThat(result.errorMessage()).contains(because);
    }

    @Test
    void everyBadMessageGetsAClearErrorAndTheStoreKeepsWorking() {
        assertRejected(null, PutMessageStatus.MESSAGE_ILLEGAL, "message is null");
        assertRejected(message("", 0, "x"), PutMessageStatus.MESSAGE_ILLEGAL, "topic name is empty");
        assertRejected(message("t".repeat(128), 0, "x"), PutMessageStatus.MESSAGE_ILLEGAL, "limit is 127 bytes");
        assertRejected(message("has space", 0, "x"), PutMessageStatus.MESSAGE_ILLEGAL, "only letters, digits");
        assertRejected(message("Fine", -2, "x"), PutMessageStatus.MESSAGE_ILLEGAL, "queue id -2 is negative");
        assertRejected(message("Fine", 0, "x".repeat(16 * 1024)), PutMessageStatus.MESSAGE_ILLEGAL,
                "maximum message size is 16384");

        MessageToStore badKey = message("Fine", 0, "x");
        badKey.putProperty("a\u0001b", "v");
        assertRejected(badKey, PutMessageStatus.MESSAGE_ILLEGAL, "property name \"a\\u0001b\"");
        MessageToStore badValue = message("Fine", 0, "x");
        badValue.putProperty("k", "v\u0002w");
        assertRejected(badValue, PutMessageStatus.MESSAGE_ILLEGAL, "value of message property \"k\"");
        MessageToStore badEncoded = message("Fine", 0, "x");
        badEncoded.setPropertiesString("k\u0001v\u0001w\u0002");
        assertRejected(badEncoded, PutMessageStatus.MESSAGE_ILLEGAL, "value of message property \"k\"");
        MessageToStore noSeparator = message("Fine", 0, "x");
        noSeparator.setPropertiesString("justtext");
        assertRejected(noSeparator, PutMessageStatus.MESSAGE_ILLEGAL, "has no value separator");
        MessageToStore hugeProps = message("Fine", 0, "x");
        hugeProps.putProperty("big", "p".repeat(40_000));
        PutMessageResult huge = store.putMessage(hugeProps);
        assertThat(huge.status()).isIn(PutMessageStatus.PROPERTIES_SIZE_EXCEEDED, PutMessageStatus.MESSAGE_ILLEGAL);
        assertThat(huge.errorMessage()).containsAnyOf("limit is 32767 bytes", "maximum message size");

        assertThat(store.putMessages(List.of()).errorMessage()).contains("batch is empty");
        List<MessageToStore> mixed = new ArrayList<>(List.of(message("Fine", 0, "ok"), message("bad topic", 0, "x")));
        assertThat(store.putMessages(mixed).errorMessage()).startsWith("Message 2 of the batch");

        assertThat(store.getMaxPhyOffset()).as("nothing was written").isZero();
        assertThat(store.stats().putFailureCount()).isEqualTo(13);

        MessageToStore encoded = message("Fine", 0, "ok");
        encoded.setPropertiesString("TAGS\u0001a\u0002KEYS\u0001k1\u0002");
        assertThat(store.putMessage(encoded).isOk()).isTrue();
        assertThat(store.putMessage(message("Fine", 0, "ok2")).isOk()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);
        assertThat(readAll(store, "Fine", 0, 0)).containsExactly("ok", "ok2");
        assertThat(store.readMessageAt(0).getTags()).isEqualTo("a");
    }

    @Test
    void badConfigurationIsRejectedWithEveryProblemNamed() {
        MessageStoreConfig config = smallConfig(dir.resolve("other"));
        config.setMappedFileSizeConsumeQueue(30);
        config.setDeleteWhen("25");
        config.setDiskMaxUsedSpaceRatio(99);
        config.setStoreHost("nohost");
        config.setMaxMessageSize(1 << 30);
        assertThatThrownBy(() -> new DefaultMessageStore(config)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mappedFileSizeConsumeQueue is 30")
                .hasMessageContaining("hours run from 00 to 23")
                .hasMessageContaining("diskMaxUsedSpaceRatio is 99")
                .hasMessageContaining("storeHost \"nohost\" has no port")
                .hasMessageContaining("maxMessageSize (1073741824) must be smaller than mappedFileSizeCommitLog");
    }

    @Test
    void putsAfterShutdownAreRefused() throws IOException {
        DefaultMessageStore other = new DefaultMessageStore(smallConfig(dir.resolve("closed")));
        PutMessageResult beforeStart = other.putMessage(message("T", 0, "x"));
        assertThat(beforeStart.status()).isEqualTo(PutMessageStatus.SERVICE_NOT_AVAILABLE);
        other.start();
        assertThat(other.putMessage(message("T", 0, "x")).isOk()).isTrue();
        other.shutdown();
        assertThat(other.putMessage(message("T", 0, "x")).status()).isEqualTo(PutMessageStatus.SERVICE_NOT_AVAILABLE);
        other.shutdown(); // twice is harmless
    }
}
