package dev.wharf.console.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.console.ConsoleSettings;
import dev.wharf.console.StartupRefusal;
import dev.wharf.console.StartupRefusalAnalyzer;
import dev.wharf.console.TestUsers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Users and roles from a users file in the broker's format, and the refusal to run open on a public address. */
class ConsoleUsersTest {

    @TempDir
    Path dir;

    private static ConsoleSettings settings(String usersFile, boolean insecure) {
        return new ConsoleSettings("127.0.0.1:9876", null, null, null, usersFile, insecure, null, null, null, null);
    }

    @Test
    void superUsersAndClusterAdminsAreAdminsEveryoneElseReadsOnly() throws Exception {
        ConsoleUsers users = new ConsoleUsers(settings(TestUsers.write(dir).toString(), false), "0.0.0.0");
        assertThat(users.loginRequired()).isTrue();
        assertThat(users.authenticate("root", "root-password".toCharArray()).role()).isEqualTo(Role.ADMIN);
        assertThat(users.authenticate("ops", "ops-password".toCharArray()).role()).isEqualTo(Role.ADMIN);
        // ADMIN on one named cluster is not ADMIN on cluster:*
        assertThat(users.authenticate("viewer", "viewer-password".toCharArray()).role()).isEqualTo(Role.READ_ONLY);
        assertThat(users.authenticate("viewer", "wrong-password".toCharArray())).isNull();
        assertThat(users.authenticate("nobody", "viewer-password".toCharArray())).isNull();
        assertThat(users.authenticate("viewer", "short".toCharArray())).isNull();
        assertThat(users.roleOf("nobody")).isNull();
    }

    @Test
    void withoutUsersOnlyLoopbackOrAnExplicitInsecureStarts() {
        assertThatCode(() -> ConsoleUsers.checkExposure("127.0.0.1", false, false)).doesNotThrowAnyException();
        assertThatCode(() -> ConsoleUsers.checkExposure("::1", false, false)).doesNotThrowAnyException();
        assertThatCode(() -> ConsoleUsers.checkExposure("0.0.0.0", true, false)).doesNotThrowAnyException();
        assertThatCode(() -> ConsoleUsers.checkExposure("0.0.0.0", false, true)).doesNotThrowAnyException();
        assertThatThrownBy(() -> ConsoleUsers.checkExposure("0.0.0.0", false, false))
                .hasMessageContaining("would listen on 0.0.0.0 without a login").hasMessageContaining("--users FILE")
                .hasMessageContaining("--insecure");
        assertThatThrownBy(() -> ConsoleUsers.checkExposure("", false, false))
                .hasMessageContaining("every interface");
        assertThatThrownBy(() -> new ConsoleUsers(settings(null, false), "10.1.2.3"))
                .hasMessageContaining("would listen on 10.1.2.3 without a login");
    }

    @Test
    void aMissingOrEmptyUsersFileIsNamed() throws Exception {
        Path missing = dir.resolve("nope.json");
        assertThatThrownBy(() -> new ConsoleUsers(settings(missing.toString(), false), "127.0.0.1"))
                .hasMessageContaining(missing + " does not exist").hasMessageContaining("user-create");
        Path empty = dir.resolve("empty.json");
        Files.writeString(empty, "{\"users\": []}");
        assertThatThrownBy(() -> new ConsoleUsers(settings(empty.toString(), false), "127.0.0.1"))
                .hasMessageContaining("lists no user");
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"users\": [ {\"name\": \"x\"");
        assertThatThrownBy(() -> new ConsoleUsers(settings(broken.toString(), false), "127.0.0.1"))
                .isInstanceOf(StartupRefusal.class).hasMessageContaining("cannot be used")
                .hasMessageContaining("is not valid JSON");
    }

    @Test
    void aRefusalIsReportedAsProblemAndActionWithoutAStackTrace() {
        FailureAnalysis analysis = new StartupRefusalAnalyzer().analyze(new IllegalStateException("while creating",
                new StartupRefusal("The console would listen on 0.0.0.0 without a login.", "Give it users.")));
        assertThat(analysis.getDescription()).isEqualTo("The console would listen on 0.0.0.0 without a login.");
        assertThat(analysis.getAction()).isEqualTo("Give it users.");
    }
}
