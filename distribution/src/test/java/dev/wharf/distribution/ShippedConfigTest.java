package dev.wharf.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.ha.ControllerModeConfig;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.common.config.BeanBinder;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.store.MessageStoreConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The configuration files the archive ships: they load as shipped, every key they document (commented out) is a
 * real key with a valid example value, and every key the config beans have is documented there, so a new
 * setting cannot be added without its line in conf/.
 */
class ShippedConfigTest {

    /** A commented-out setting: "#key=value" (a comment line has a space after the #). */
    private static final Pattern COMMENTED = Pattern.compile("^#([A-Za-z][A-Za-z0-9]*)=(.*)$");
    private static final Pattern ACTIVE = Pattern.compile("^([A-Za-z][A-Za-z0-9]*)=(.*)$");

    private static Path conf(String name) {
        return Path.of(System.getProperty("wharf.dist.src", "src"), "conf", name);
    }

    @Test
    void brokerConfLoadsAsShipped() throws IOException {
        BrokerSettings settings = BrokerSettings.load(conf("broker.conf"));
        assertThat(settings.broker().getBrokerName()).isEqualTo("broker-a");
        assertThat(settings.broker().getBrokerClusterName()).isEqualTo("DefaultCluster");
    }

    @Test
    void brokerConfLoadsWithEveryDocumentedKeyUncommented() throws IOException {
        Map<String, String> all = settings(conf("broker.conf"), true);
        assertThatCode(() -> BrokerSettings.from(all, "broker.conf with every key uncommented"))
                .doesNotThrowAnyException();
    }

    @Test
    void brokerConfDocumentsEveryBrokerStoreAndNetworkKey() throws IOException {
        Map<String, String> documented = settings(conf("broker.conf"), true);
        List<String> missing = Stream.of(BrokerConfig.class, MessageStoreConfig.class, NettyServerConfig.class,
                        ControllerModeConfig.class)
                .flatMap(type -> BeanBinder.keys(type).stream())
                .filter(key -> !documented.containsKey(key))
                .toList();
        assertThat(missing).as("keys of the config beans missing from distribution/src/conf/broker.conf: add each "
                + "with a comment and its default, commented out").isEmpty();
    }

    @Test
    void namesrvConfLoadsAsShippedAndWithEveryKeyUncommented() throws IOException {
        for (boolean uncommented : new boolean[] {false, true}) {
            Map<String, String> settings = settings(conf("namesrv.conf"), uncommented);
            NettyServerConfig netty = new NettyServerConfig();
            NameServerConfig nameServer = new NameServerConfig();
            BeanBinder.bindStrict(settings, "namesrv.conf", nameServer, netty);
            if (uncommented) {
                assertThat(netty.getListenPort()).isEqualTo(9876);
            }
        }
    }

    @Test
    void namesrvConfDocumentsEveryNameServerAndNetworkKey() throws IOException {
        Map<String, String> documented = settings(conf("namesrv.conf"), true);
        List<String> missing = Stream.of(NameServerConfig.class, NettyServerConfig.class)
                .flatMap(type -> BeanBinder.keys(type).stream())
                .filter(key -> !documented.containsKey(key))
                .toList();
        assertThat(missing).as("keys missing from distribution/src/conf/namesrv.conf").isEmpty();
    }

    @Test
    void everyDocumentedKeyHasAComment() throws IOException {
        for (String name : List.of("broker.conf", "namesrv.conf")) {
            List<String> lines = Files.readAllLines(conf(name), StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = COMMENTED.matcher(lines.get(i));
                Matcher a = ACTIVE.matcher(lines.get(i));
                if (m.matches() || a.matches()) {
                    assertThat(i > 0 && lines.get(i - 1).startsWith("# "))
                            .as("%s line %d (%s) is preceded by a comment saying what it does", name, i + 1, lines.get(i))
                            .isTrue();
                }
            }
        }
    }

    @Test
    void theSystemdUnitRunsTheServerAsASimpleServiceStoppedBySigtermAndRestartedOnFailure() throws IOException {
        Path unit = Path.of(System.getProperty("wharf.dist.src", "src"), "dist", "systemd", "wharf.service");
        List<String> lines = Files.readAllLines(unit, StandardCharsets.UTF_8);
        assertThat(lines).contains("[Unit]", "[Service]", "[Install]", "Type=simple", "KillSignal=SIGTERM",
                "Restart=on-failure", "LimitNOFILE=1048576", "SuccessExitStatus=143", "User=wharf");
        assertThat(lines).anyMatch(l -> l.startsWith("ExecStart=/opt/wharf/bin/wharf standalone"));
    }

    /** The settings of a file, with the commented-out ones too when asked (a later line wins, as in the file). */
    private static Map<String, String> settings(Path file, boolean withCommented) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            Matcher active = ACTIVE.matcher(line);
            Matcher commented = COMMENTED.matcher(line);
            if (active.matches()) {
                out.put(active.group(1), active.group(2).trim());
            } else if (withCommented && commented.matches()) {
                out.putIfAbsent(commented.group(1), commented.group(2).trim());
            }
        }
        return out;
    }
}
