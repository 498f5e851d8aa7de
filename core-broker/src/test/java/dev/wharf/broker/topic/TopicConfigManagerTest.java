package dev.wharf.broker.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.body.TopicPerm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopicConfigManagerTest {

    @TempDir
    Path dir;

    private TopicConfigManager manager(boolean autoCreate) {
        return new TopicConfigManager(JsonConfigFile.inConfigDir(dir, "topics.json",
                TopicConfigManager.TopicsDocument.class), 8, autoCreate, 18);
    }

    @Test
    void changesArePersistedVersionedAndReported() throws Exception {
        TopicConfigManager topics = manager(true);
        List<String> events = new ArrayList<>();
        topics.addListener(new TopicConfigManager.Listener() {
            @Override
            public void topicsChanged() {
                events.add("changed");
            }

            @Override
            public void topicDeleted(String topic) {
                events.add("deleted " + topic);
            }
        });
        topics.load();
        long v0 = topics.dataVersion().counter();
        assertThat(topics.find("SCHEDULE_TOPIC_XXXX").readQueueNums()).isEqualTo(18);
        assertThat(topics.find("TRANS_CHECK_MAX_TIME_TOPIC").readQueueNums()).isEqualTo(1);

        assertThat(topics.findOrCreateForSend("Orders", 0).writeQueueNums()).isEqualTo(8);
        assertThat(topics.findOrCreateForSend("Small", 2).writeQueueNums()).isEqualTo(2);
        assertThat(topics.findOrCreateForSend("%DLQ%g", 0).writeQueueNums()).isEqualTo(1);
        topics.update(new TopicConfig("Admin", 3, 5, TopicPerm.READ, 0, true));
        assertThat(topics.dataVersion().counter()).isEqualTo(v0 + 4);
        assertThat(topics.delete("Small")).isTrue();
        assertThat(events).containsExactly("changed", "changed", "changed", "changed", "deleted Small", "changed");

        TopicConfigManager reloaded = manager(true);
        reloaded.load();
        assertThat(reloaded.all().keySet()).contains("Orders", "%DLQ%g", "Admin").doesNotContain("Small");
        assertThat(reloaded.find("Admin")).isEqualTo(new TopicConfig("Admin", 3, 5, TopicPerm.READ, 0, true));
        assertThat(reloaded.dataVersion()).isEqualTo(topics.dataVersion());
    }

    @Test
    void withoutAutoCreateUnknownTopicsStayUnknownButGroupTopicsAreMade() throws Exception {
        TopicConfigManager topics = manager(false);
        topics.load();
        assertThat(topics.findOrCreateForSend("Orders", 0)).isNull();
        assertThat(topics.findOrCreateForSend("%RETRY%g", 0)).isNotNull();
    }

    @Test
    void badAdministrationIsExplained() throws Exception {
        TopicConfigManager topics = manager(true);
        topics.load();
        assertThatThrownBy(() -> topics.update(new TopicConfig("bad name", 1)))
                .hasMessageContaining("bad name");
        assertThatThrownBy(() -> topics.update(new TopicConfig("T", 0, 1, 6, 0, false)))
                .hasMessageContaining("1 to 1024");
        assertThatThrownBy(() -> topics.update(new TopicConfig("T", 1, 1, 64, 0, false)))
                .hasMessageContaining("permission bits 64");
        assertThatThrownBy(() -> topics.update(new TopicConfig("RMQ_SYS_TRANS_HALF_TOPIC", 1)))
                .hasMessageContaining("internal");
        assertThatThrownBy(() -> topics.delete("SCHEDULE_TOPIC_XXXX")).hasMessageContaining("internal");
    }
}
