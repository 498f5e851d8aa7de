package dev.wharf.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak in one minute: a real broker process on a small ext4 (or tmpfs) the run mounts, killed with
 * {@code kill -9}, its disk filled and its commit log damaged while producers and a consumer run; the end check
 * finds every acknowledged message delivered or quarantined. The long run is a documented command (README,
 * "Store reliability").
 */
@EnabledOnOs(OS.LINUX)
class SoakRunTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void oneMinuteOfEpisodesLosesNoAcknowledgedMessage() throws Exception {
        try (SoakDisk probe = SoakDisk.mount(dir.resolve("probe"), 16, SoakDisk.Kind.TMPFS)) {
            assertThat(probe.totalBytes()).isPositive();
        } catch (IOException e) {
            abort("The soak needs a file system of its own and cannot mount one here: " + e.getMessage());
        }
        Path work = dir.resolve("work");
        SoakRun.Settings settings = new SoakRun.Settings(60, 6, 150, 2, 512, 4, 256, SoakDisk.Kind.EXT4, 8,
                "async", 3, 3, true, "-Xms128m -Xmx256m", work, 7, 3);

        SoakRun.Result result = new SoakRun(settings, System.out).run();

        assertThat(result.kills()).as("kill -9 episodes").isPositive();
        assertThat(result.fulls()).as("disk-full episodes").isPositive();
        assertThat(result.corruptions()).as("corruption episodes").isPositive();
        assertThat(result.check().acked).as("acknowledged sends").isPositive();
        assertThat(result.check().lost).as("acknowledged, neither delivered nor quarantined").isEmpty();
        assertThat(result.deliveredCorrupted()).as("corrupted deliveries").isZero();
        assertThat(result.failedDuringFull()).as("sends refused for another reason than a full disk").isZero();
        assertThat(result.unexpectedExits()).as("broker exits nobody asked for").isZero();
        assertThat(result.passed()).isTrue();
        assertThat(work.resolve("mnt")).as("the mount point is removed").doesNotExist();
        assertThat(Files.exists(work.resolve("disk.img"))).as("the disk image is removed").isFalse();
    }
}
