package dev.wharf.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.protocol.header.CompactSendHeader;
import dev.wharf.protocol.header.HeaderException;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RocketMQ's one-letter send header reads as the same request as the long form. */
class CompactSendHeaderTest {

    @Test
    void everyCompactFieldMapsToItsLongName() {
        Map<String, String> ext = new HashMap<>();
        ext.put("a", "pg");
        ext.put("b", "Orders");
        ext.put("c", "TBW102");
        ext.put("d", "4");
        ext.put("e", "3");
        ext.put("f", "769");
        ext.put("g", "1700000000000");
        ext.put("h", "7");
        ext.put("i", "TAGS\u0001x\u0002");
        ext.put("j", "2");
        ext.put("k", "false");
        ext.put("l", "16");
        ext.put("m", "true");
        ext.put("n", "broker-a");
        assertThat(CompactSendHeader.isCompact(ext)).isTrue();

        SendMessageRequest header = CompactSendHeader.read(ext);
        assertThat(header).isEqualTo(new SendMessageRequest("pg", "Orders", 4, 3, 769, 1_700_000_000_000L, 7,
                "TAGS\u0001x\u0002", 2, 16, true));
    }

    @Test
    void theLongFormIsReadAsItIs() {
        Map<String, String> ext = Map.of("producerGroup", "pg", "topic", "T", "defaultTopicQueueNums", "4",
                "queueId", "0", "sysFlag", "0", "bornTimestamp", "1", "flag", "0", "reconsumeTimes", "0");
        assertThat(CompactSendHeader.isCompact(ext)).isFalse();
        assertThat(CompactSendHeader.read(ext).topic()).isEqualTo("T");
    }

    @Test
    void aMissingCompactFieldIsNamedByItsLongName() {
        Map<String, String> ext = Map.of("b", "T", "d", "4", "e", "0", "f", "0", "g", "1", "h", "0", "j", "0");
        assertThatThrownBy(() -> CompactSendHeader.read(ext)).isInstanceOf(HeaderException.class)
                .hasMessageContaining("\"producerGroup\"");
    }
}
