package dev.wharf.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The short options of {@code wharf console} become Spring properties; a missing NameServer is named. */
class ConsoleCommandLineTest {

    @Test
    void optionsBecomeProperties() {
        assertThat(ConsoleApplication.translate(new String[] {"--namesrv", "10.0.0.1:9876", "--port=9090", "--bind",
                "0.0.0.0", "--logging.level.root=WARN"}))
                .containsExactly("--wharf.console.namesrv=10.0.0.1:9876", "--server.port=9090",
                        "--server.address=0.0.0.0", "--logging.level.root=WARN");
    }

    @Test
    void usersInsecureAndTheClusterUserBecomeProperties() {
        assertThat(ConsoleApplication.translate(new String[] {"--namesrv=10.0.0.1:9876", "--users",
                "/etc/wharf/console-users.json", "--insecure", "--cluster-user", "console"}))
                .containsExactly("--wharf.console.namesrv=10.0.0.1:9876",
                        "--wharf.console.users-file=/etc/wharf/console-users.json", "--wharf.console.insecure=true",
                        "--wharf.console.cluster-user=console");
    }

    @Test
    void theNameServerIsRequiredAndOptionsNeedValues() {
        assertThatThrownBy(() -> ConsoleApplication.translate(new String[] {"--port", "8080"}))
                .hasMessageContaining("--namesrv is required");
        assertThatThrownBy(() -> ConsoleApplication.translate(new String[] {"--namesrv"}))
                .hasMessageContaining("--namesrv needs a value");
    }
}
