package dev.wharf.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.client.admin.AdminClient;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tables, bodies, times and offset targets as the admin commands print and read them. */
class FormattingTest {

    @Test
    void tablesAlignTextLeftAndNumbersRight() {
        Table t = new Table(Table.text("Topic", "topic"), Table.number("QID", "queueId"), Table.text("Note", "note"));
        t.add("orders", 0, "first");
        t.add("a", 12, null);
        assertThat(t.render().lines()).containsExactly(
                "#Topic  #QID  #Note",
                "orders     0  first",
                "a         12  -");
        Map<String, Object> second = new HashMap<>();
        second.put("topic", "a");
        second.put("queueId", 12);
        second.put("note", null);
        assertThat(t.rows()).containsExactly(Map.of("topic", "orders", "queueId", 0, "note", "first"), second);
        assertThatThrownBy(() -> t.add("only one")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bodiesAreShownOnOneLineOrBySize() {
        assertThat(Texts.body("a\nb\tc".getBytes(StandardCharsets.UTF_8), 0)).isEqualTo("a\\nb c");
        assertThat(Texts.body("abcdefghij".getBytes(StandardCharsets.UTF_8), 4)).isEqualTo("abcd...");
        assertThat(Texts.body("abcd".getBytes(StandardCharsets.UTF_8), 4)).isEqualTo("abcd");
        assertThat(Texts.body(new byte[] {(byte) 0xC3, (byte) 0x28}, 0)).isEqualTo("<2 bytes, not UTF-8 text>");
        assertThat(Texts.body(new byte[] {1, 2, 3}, 0)).isEqualTo("<3 bytes, not printable text>");
        assertThat(Texts.body("grüße".getBytes(StandardCharsets.UTF_8), 0)).isEqualTo("grüße");
        assertThat(Texts.body(null, 0)).isEmpty();
    }

    @Test
    void timesAreIsoInUtc() {
        assertThat(Texts.time(1_795_946_400_123L)).isEqualTo("2026-11-29T10:00:00.123Z");
        assertThat(Texts.time(0)).isEqualTo("-");
    }

    @Test
    void offsetTargetsAreEarliestLatestOrTimes() throws CliException {
        assertThat(OffsetTarget.parse("earliest").value()).isEqualTo(AdminClient.EARLIEST);
        assertThat(OffsetTarget.parse(" Latest ").value()).isEqualTo(AdminClient.LATEST);
        assertThat(OffsetTarget.parse("2026-11-29T10:00:00Z").value()).isEqualTo(1_795_946_400_000L);
        assertThat(OffsetTarget.parse("2026-11-29T11:00:00+01:00").value()).isEqualTo(1_795_946_400_000L);
        assertThat(OffsetTarget.parse("1795946400000").describe()).isEqualTo("2026-11-29T10:00:00Z");
        for (String bad : new String[] {"", "soon", "2026-11-29", "2026-11-29T10:00:00", "99999999999999999999"}) {
            assertThatThrownBy(() -> OffsetTarget.parse(bad)).isInstanceOf(CliException.class)
                    .hasMessageContaining("--to")
                    .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(ExitCodes.USAGE));
        }
    }
}
