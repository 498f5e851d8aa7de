package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class EpochFileTest {

    @TempDir
    Path dir;

    @Test
    void entriesSurviveReopeningAndBadAppendsAreRefused() throws IOException {
        EpochFile epochs = EpochFile.open(dir);
        assertThat(epochs.entries()).isEmpty();
        assertThat(epochs.lastEpoch()).isZero();
        epochs.append(1, 0);
        epochs.append(2, 500);
        epochs.append(3, 500); // a term that wrote nothing starts where the next one does
        assertThatThrownBy(() -> epochs.append(3, 900)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("epochs must increase");
        assertThatThrownBy(() -> epochs.append(4, 100)).isInstanceOf(IllegalArgumentException.class);

        EpochFile again = EpochFile.open(dir);
        assertThat(again.entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(2, 500),
                new EpochEntry(3, 500));
        again.truncateAfter(499);
        assertThat(EpochFile.open(dir).entries()).containsExactly(new EpochEntry(1, 0));
    }

    @Test
    void aDamagedFileFallsBackToItsBackup() throws IOException {
        EpochFile epochs = EpochFile.open(dir);
        epochs.append(1, 0);
        epochs.append(2, 700);
        String text = Files.readString(epochs.path());
        Files.writeString(epochs.path(), text.replace("700", "701"), StandardCharsets.UTF_8); // CRC no longer matches
        assertThat(EpochFile.open(dir).entries()).containsExactly(new EpochEntry(1, 0));
        Files.writeString(epochs.path(), "", StandardCharsets.UTF_8);
        assertThat(EpochFile.open(dir).entries()).containsExactly(new EpochEntry(1, 0));
    }

    @Test
    void lastCommonOffsetIsTheEndOfTheNewestSharedTerm() {
        List<EpochEntry> master = List.of(new EpochEntry(1, 0), new EpochEntry(2, 1000), new EpochEntry(3, 1500));
        // an old master of epoch 2 that wrote past the point where epoch 3 began
        assertThat(EpochFile.lastCommonOffset(List.of(new EpochEntry(1, 0), new EpochEntry(2, 1000)), 1800,
                master, 2500)).isEqualTo(1500);
        // a replica behind the master: everything it has is common
        assertThat(EpochFile.lastCommonOffset(List.of(new EpochEntry(1, 0), new EpochEntry(2, 1000)), 1200,
                master, 2500)).isEqualTo(1200);
        // an epoch the master never saw (an old master elected but cut off): back to the previous term's end
        assertThat(EpochFile.lastCommonOffset(List.of(new EpochEntry(1, 0), new EpochEntry(4, 900)), 1300,
                List.of(new EpochEntry(1, 0), new EpochEntry(5, 800)), 2000)).isEqualTo(800);
        // no local history: nothing to compare (fingerprints decide); unrelated histories cannot be reconciled
        assertThat(EpochFile.lastCommonOffset(List.of(), 300, master, 2500)).isEqualTo(300);
        assertThat(EpochFile.lastCommonOffset(List.of(new EpochEntry(7, 0)), 100, master, 2500)).isEqualTo(-1);
        // entries beyond the local end (adopted from a master, not copied yet) do not count
        assertThat(EpochFile.lastCommonOffset(List.of(new EpochEntry(1, 0), new EpochEntry(2, 1000)), 600,
                List.of(new EpochEntry(1, 0), new EpochEntry(3, 500)), 2000)).isEqualTo(500);
    }
}
