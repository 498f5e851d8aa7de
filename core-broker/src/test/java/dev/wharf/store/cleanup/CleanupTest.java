package dev.wharf.store.cleanup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.message.MessageExt;
import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.file.MappedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CleanupTest {

    private static final long HOUR = 3_600_000L;

    @TempDir
    Path dir;

    private CommitLog commitLog;

    @BeforeEach
    void setUp() throws IOException {
        commitLog = new CommitLog(dir.resolve("commitlog"), 4096, 2048);
        while (commitLog.mappedFileQueue().fileCount() < 6) {
            MessageExt msg = new MessageExt();
            msg.setTopic("Old");
            msg.setBody(new byte[500]);
            assertThat(commitLog.putMessage(msg, "").isOk()).isTrue();
        }
        List<MappedFile> files = commitLog.mappedFileQueue().getMappedFiles();
        long old = System.currentTimeMillis() - 100 * HOUR;
        for (int i = 0; i < 3; i++) {
            Files.setLastModifiedTime(files.get(i).getPath(), FileTime.fromMillis(old));
        }
    }

    @AfterEach
    void tearDown() {
        commitLog.shutdown();
    }

    private static Clock at(int hour) {
        return Clock.fixed(LocalDateTime.of(2024, 5, 1, hour, 30).toInstant(ZoneOffset.UTC), ZoneId.of("UTC"));
    }

    private CleanCommitLogService service(String deleteWhen, int diskRatio, int hour) {
        return new CleanCommitLogService(commitLog, 72 * HOUR, DeleteWhen.parse(deleteWhen), diskRatio, 1000, 0, at(hour));
    }

    @Test
    void deletesExpiredFilesOnlyAtTheConfiguredHours() {
        service("04;16", 95, 10).run();
        assertThat(commitLog.mappedFileQueue().fileCount()).as("10:30 is not a delete hour").isEqualTo(6);
        service("04;16", 95, 16).run();
        assertThat(commitLog.mappedFileQueue().fileCount()).as("old files go at 16:30").isEqualTo(3);
        assertThat(commitLog.getMinOffset()).isEqualTo(3 * 4096);
    }

    @Test
    void manualRequestIgnoresTheHourButNotTheAge() {
        CleanCommitLogService clean = service("04", 95, 10);
        clean.requestManualDelete();
        clean.run();
        assertThat(commitLog.mappedFileQueue().fileCount()).isEqualTo(3);
        clean.requestManualDelete();
        clean.run();
        assertThat(commitLog.mappedFileQueue().fileCount()).as("young files stay").isEqualTo(3);
    }

    @Test
    void fullDiskDeletesAtOnceKeepingTheCurrentFile() {
        // a ratio of 0 makes any disk "too full"
        service("04", 0, 10).run();
        assertThat(commitLog.mappedFileQueue().fileCount()).isEqualTo(1);
        assertThat(commitLog.putMessage(newMessage(), "").isOk()).as("the store keeps working").isTrue();
    }

    @Test
    void consumeQueueCleanupFollowsTheCommitLogMinimum() {
        List<Long> calls = new ArrayList<>();
        CleanConsumeQueueService cq = new CleanConsumeQueueService(commitLog::getMinOffset, calls::add);
        cq.run();
        assertThat(calls).as("nothing deleted yet").isEmpty();
        service("04", 95, 4).run();
        cq.run();
        cq.run();
        assertThat(calls).containsExactly(3 * 4096L);
    }

    @Test
    void deleteWhenRejectsBadHours() {
        assertThat(DeleteWhen.parse("04;16").matches(16)).isTrue();
        assertThat(DeleteWhen.parse(" 4 ").matches(4)).isTrue();
        assertThat(DeleteWhen.parse("04").matches(5)).isFalse();
        assertThatThrownBy(() -> DeleteWhen.parse("24")).hasMessageContaining("hours run from 00 to 23");
        assertThatThrownBy(() -> DeleteWhen.parse("4am")).hasMessageContaining("\"4am\", which is not an hour");
        assertThatThrownBy(() -> DeleteWhen.parse("")).hasMessageContaining("deleteWhen is empty");
    }

    private static MessageExt newMessage() {
        MessageExt msg = new MessageExt();
        msg.setTopic("New");
        msg.setBody(new byte[10]);
        return msg;
    }
}
