package dev.wharf.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.common.config.ConfigFileReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigFileReaderTest {

    @TempDir
    Path dir;

    @Test
    void aKeyGivenTwiceIsRefusedNamingBothLines() throws Exception {
        Path file = dir.resolve("broker.conf");
        Files.writeString(file, "# broker\nbrokerName=a\n\nlistenPort=10911\n! other comment\nbrokerName = b\n");
        assertThatThrownBy(() -> BrokerSettings.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("The key brokerName appears twice")
                .hasMessageContaining("on line 2 and on line 6")
                .hasMessageContaining(file.toString());
    }

    @Test
    void theFrameLimitsAreBrokerSettings() throws Exception {
        Path file = dir.resolve("broker.conf");
        Files.writeString(file, "maxPartialFrameBytes=67108864\npartialFrameTimeoutMillis=5000\n");
        BrokerSettings settings = BrokerSettings.load(file);
        assertThat(settings.netty().getMaxPartialFrameBytes()).isEqualTo(64L * 1024 * 1024);
        assertThat(settings.netty().getPartialFrameTimeoutMillis()).isEqualTo(5000);
    }

    @Test
    void aDuplicateAfterAContinuedLineCountsNaturalLines() {
        String text = "listenPort=1\\\n   0911\nbrokerName=a\nlisten\\\n  Port=10922\n";
        assertThatThrownBy(() -> ConfigFileReader.parse(text, "test"))
                .hasMessageContaining("The key listenPort appears twice in test: on line 1 and on line 4");
    }

    @Test
    void theSameKeysAndValuesAsPropertiesForEveryFormOfTheFormat() throws Exception {
        String text = String.join("\n",
                "# comment = not a key",
                "   ! also a comment",
                "a=1",
                "b : two words ",
                "c    spaced",
                "d=line one \\",
                "    # not a comment here",
                "e\\=key=\\u00e9t\\u00e9\\ttab",
                "f=ends with backslash\\\\",
                "g=",
                "h",
                "  i = leading",
                "j=last\\");
        Map<String, String> read = ConfigFileReader.parse(text, "test");
        Properties properties = new Properties();
        properties.load(new StringReader(text));
        Map<String, String> expected = new LinkedHashMap<>();
        for (String key : properties.stringPropertyNames()) {
            expected.put(key, properties.getProperty(key));
        }
        assertThat(read).isEqualTo(expected);
        assertThat(read.keySet()).containsExactly("a", "b", "c", "d", "e=key", "f", "g", "h", "i", "j");
        assertThat(read.get("d")).isEqualTo("line one # not a comment here");
        assertThat(read.get("e=key")).isEqualTo("\u00e9t\u00e9\ttab");
    }

    @Test
    void crLfAndCrLineEndsAreLinesToo() {
        assertThatThrownBy(() -> ConfigFileReader.parse("a=1\r\nb=2\rc=3\r\na=4", "test"))
                .hasMessageContaining("on line 1 and on line 4");
    }

    @Test
    void aMalformedEscapeNamesItsLine() {
        assertThatThrownBy(() -> ConfigFileReader.parse("a=1\nb=\\u00zz\n", "test"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Line 2 of test is malformed");
    }
}
