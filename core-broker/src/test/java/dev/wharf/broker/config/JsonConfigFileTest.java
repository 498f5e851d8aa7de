package dev.wharf.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonConfigFileTest {

    record Doc(String name, Map<String, Long> values) {
    }

    @TempDir
    Path dir;

    @Test
    void aDocumentRoundTripsAndACorruptFileFallsBackToTheBackup() throws Exception {
        JsonConfigFile<Doc> file = JsonConfigFile.inConfigDir(dir, "doc.json", Doc.class);
        assertThat(file.load()).isNull();
        file.persist(new Doc("one", Map.of("a", 1L)));
        file.persist(new Doc("two", Map.of("a", 2L)));
        assertThat(file.load()).isEqualTo(new Doc("two", Map.of("a", 2L)));
        assertThat(file.path()).isEqualTo(dir.resolve("config/doc.json"));

        Files.writeString(file.path(), "{ torn");
        assertThat(file.load()).isEqualTo(new Doc("one", Map.of("a", 1L)));
    }
}
