package dev.wharf.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** wharf namesrv --config: the file's keys, the flags given on top, and the errors. */
class NameServerSettingsTest {

    @TempDir
    Path dir;

    @Test
    void withoutAFileTheDefaultsAndFlagsApply() throws IOException {
        NameServerSettings s = NameServerSettings.assemble(null, null, null);
        assertThat(s.netty().getListenPort()).isEqualTo(9876);
        assertThat(s.netty().getBindAddress()).isEqualTo("127.0.0.1");
        assertThat(NameServerSettings.assemble(null, 0, "0.0.0.0").netty().getListenPort()).isZero();
    }

    @Test
    void theFileSetsNameServerAndListenerKeysAndGivenFlagsOverrideIt() throws IOException {
        Path file = dir.resolve("namesrv.conf");
        Files.writeString(file, "# comment\nlistenPort=9999\nbindAddress=0.0.0.0\nbrokerChannelExpiredTime=30000\n"
                + "scanNotActiveBrokerInterval = 2000\n");
        NameServerSettings fromFile = NameServerSettings.assemble(file, null, null);
        assertThat(fromFile.netty().getListenPort()).isEqualTo(9999);
        assertThat(fromFile.netty().getBindAddress()).isEqualTo("0.0.0.0");
        assertThat(fromFile.nameServer().getBrokerChannelExpiredTime()).isEqualTo(30_000);
        assertThat(fromFile.nameServer().getScanNotActiveBrokerInterval()).isEqualTo(2_000);

        NameServerSettings flags = NameServerSettings.assemble(file, 0, "127.0.0.1");
        assertThat(flags.netty().getListenPort()).isZero();
        assertThat(flags.netty().getBindAddress()).isEqualTo("127.0.0.1");
    }

    @Test
    void badKeysValuesAndFilesAreNamed() throws IOException {
        Path file = dir.resolve("namesrv.conf");
        Files.writeString(file, "listenPrt=9999\n");
        assertThatThrownBy(() -> NameServerSettings.assemble(file, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listenPrt").hasMessageContaining("listenPort").hasMessageContaining(file.toString());
        Files.writeString(file, "brokerChannelExpiredTime=-1\n");
        assertThatThrownBy(() -> NameServerSettings.assemble(file, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("brokerChannelExpiredTime").hasMessageContaining(file.toString());
        assertThatThrownBy(() -> NameServerSettings.assemble(dir.resolve("missing.conf"), null, null))
                .isInstanceOf(NoSuchFileException.class).hasMessageContaining("does not exist");
    }

    @Test
    void versionNamesTheReleaseTheCommitAndTheBuildTime() {
        Cli.Result r = Cli.run("--version");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        String[] lines = r.out().split("\n");
        assertThat(lines[0]).startsWith("Wharf ").doesNotContain("${");
        assertThat(lines[1]).matches("commit \\S+, built \\S+").doesNotContain("${");
        assertThat(BuildInfo.current().version()).isNotEqualTo("(development build)");
    }
}
