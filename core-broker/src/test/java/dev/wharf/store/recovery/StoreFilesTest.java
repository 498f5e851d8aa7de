package dev.wharf.store.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreFilesTest {

    @TempDir
    Path dir;

    @Test
    void secondLockOnTheSameStoreFailsAtOnce() throws IOException {
        try (StoreLock first = StoreLock.acquire(dir)) {
            assertThat(first.isValid()).isTrue();
            assertThatThrownBy(() -> StoreLock.acquire(dir)).isInstanceOf(IOException.class)
                    .hasMessageContaining("already in use by process " + ProcessHandle.current().pid())
                    .hasMessageContaining("storePathRootDir");
        }
        try (StoreLock again = StoreLock.acquire(dir)) {
            assertThat(again.isValid()).as("released locks can be taken again").isTrue();
        }
    }

    @Test
    void abortMarkerComesAndGoes() throws IOException {
        AbortFile abort = new AbortFile(dir);
        assertThat(abort.exists()).isFalse();
        abort.create();
        abort.create();
        assertThat(abort.exists()).isTrue();
        abort.delete();
        assertThat(abort.exists()).isFalse();
        abort.delete();
    }

    @Test
    void checkpointSurvivesReopenAndATornSlot() throws IOException {
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            assertThat(cp.wasLoadedValid()).isFalse();
            assertThat(cp.getCleanShutdownOffset()).isEqualTo(CheckpointLayout.RUNNING);
            cp.setSafeOffset(1000);
            cp.setPhysicMsgTimestamp(11);
            cp.setLogicsMsgTimestamp(12);
            cp.setIndexMsgTimestamp(13);
            cp.flush(); // slot 1
            cp.setSafeOffset(2000);
            cp.setCleanShutdownOffset(2500);
            cp.flush(); // slot 0
        }
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            assertThat(cp.wasLoadedValid()).isTrue();
            assertThat(cp.getSafeOffset()).isEqualTo(2000);
            assertThat(cp.getCleanShutdownOffset()).isEqualTo(2500);
            assertThat(cp.getPhysicMsgTimestamp()).isEqualTo(11);
            assertThat(cp.getLogicsMsgTimestamp()).isEqualTo(12);
            assertThat(cp.getIndexMsgTimestamp()).isEqualTo(13);
        }
        // tear the newest slot: the older one is used
        try (FileChannel ch = FileChannel.open(dir.resolve(StoreCheckpoint.FILE_NAME), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), CheckpointLayout.slotPosition(0) + CheckpointLayout.SAFE_OFFSET_OFFSET);
        }
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            assertThat(cp.wasLoadedValid()).isTrue();
            assertThat(cp.getSafeOffset()).isEqualTo(1000);
            assertThat(cp.getCleanShutdownOffset()).isEqualTo(CheckpointLayout.RUNNING);
        }
        Files.write(dir.resolve(StoreCheckpoint.FILE_NAME), new byte[] {9, 9, 9});
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            assertThat(cp.wasLoadedValid()).as("garbage is ignored, not trusted").isFalse();
            assertThat(cp.getSafeOffset()).isZero();
        }
    }
}
