package dev.wharf.store.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigFileTest {

    @TempDir
    Path dir;

    @Test
    void missingFileLoadsAsNull() throws IOException {
        assertThat(new ConfigFile(dir.resolve("config/topics.json")).load()).isNull();
    }

    @Test
    void persistReplacesAndKeepsTheBackup() throws IOException {
        ConfigFile file = new ConfigFile(dir.resolve("config/topics.json"));
        file.persist("{\"v\":1}");
        assertThat(file.load()).isEqualTo("{\"v\":1}");
        assertThat(Files.exists(file.backupPath())).as("no backup before a second version").isFalse();

        file.persist("{\"v\":2}");
        assertThat(file.load()).isEqualTo("{\"v\":2}");
        assertThat(Files.readString(file.backupPath())).isEqualTo("{\"v\":1}");
        try (var files = Files.list(dir.resolve("config"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("no temp files left behind").containsExactlyInAnyOrder("topics.json", "topics.json.bak");
        }
    }

    @Test
    void corruptFileFallsBackToTheBackup() throws IOException {
        ConfigFile file = new ConfigFile(dir.resolve("offsets.json"));
        file.persist("{\"offset\":1}");
        file.persist("{\"offset\":2}");
        Files.write(file.path(), new byte[] {(byte) 0xC3, (byte) 0x28, 0x7B}); // invalid UTF-8
        assertThat(file.load()).isEqualTo("{\"offset\":1}");

        Files.writeString(file.path(), "{\"offset\":", StandardCharsets.UTF_8); // truncated JSON
        assertThat(file.load(content -> content.trim().endsWith("}"))).isEqualTo("{\"offset\":1}");
        assertThat(file.load()).as("without a check the content is taken as it is").isEqualTo("{\"offset\":");

        Files.write(file.path(), new byte[0]);
        assertThat(file.load()).isEqualTo("{\"offset\":1}");
        Files.delete(file.path());
        assertThat(file.load()).as("missing main file").isEqualTo("{\"offset\":1}");
    }

    @Test
    void bothUnusableIsAClearError() throws IOException {
        ConfigFile file = new ConfigFile(dir.resolve("delay.json"));
        file.persist("a");
        file.persist("b");
        assertThatThrownBy(() -> file.load(content -> false)).isInstanceOf(IOException.class)
                .hasMessageContaining("Neither").hasMessageContaining("delay.json.bak");
        assertThatThrownBy(() -> file.persist(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void persistAfterRecoveryFromBackupKeepsWorking() throws IOException {
        ConfigFile file = new ConfigFile(dir.resolve("x.json"));
        file.persist("one");
        file.persist("two");
        Files.delete(file.path());
        assertThat(file.load()).isEqualTo("one");
        file.persist("three");
        assertThat(file.load()).isEqualTo("three");
        assertThat(Files.readString(file.backupPath())).isEqualTo("one");
    }
}
