package dev.wharf.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.security.AccessController.Authentication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hashing, signing, the users file and policy evaluation, on real files. */
class AccessControllerTest {

    private static final String PASSWORD = "correct horse battery";

    @TempDir
    Path dir;
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    private Path aclWith(User... users) throws IOException {
        Path file = dir.resolve("acl.json");
        AclFile.write(file, List.of(users));
        return file;
    }

    private static User user(String name, boolean superUser, Policy... policies) {
        return new User(name, PasswordHasher.hash(name, PASSWORD.toCharArray()), superUser, List.of(policies));
    }

    private Map<String, String> signed(Credentials c, int code, Map<String, String> fields, byte[] body) {
        Map<String, String> out = new HashMap<>(fields);
        out.put(RequestSignature.ACCESS_KEY, c.user());
        out.put(RequestSignature.TIMESTAMP, Long.toString(clock.get()));
        out.put(RequestSignature.SIGNATURE, c.signature(code, out, body, null));
        return out;
    }

    @Test
    void hashesAreSaltedPerUserSlowAndNeverThePassword() throws IOException {
        String a = PasswordHasher.hash("alice", PASSWORD.toCharArray());
        String b = PasswordHasher.hash("bob", PASSWORD.toCharArray());
        assertThat(a).startsWith("pbkdf2-sha256$" + PasswordHasher.ITERATIONS + "$").doesNotContain(PASSWORD);
        assertThat(a.substring(a.lastIndexOf('$'))).as("same password, other user: other key")
                .isNotEqualTo(b.substring(b.lastIndexOf('$')));
        assertThat(PasswordHasher.matches("alice", PASSWORD.toCharArray(), a)).isTrue();
        assertThat(PasswordHasher.matches("alice", "wrong password".toCharArray(), a)).isFalse();
        assertThatThrownBy(() -> PasswordHasher.keyOf("bob", a)).hasMessageContaining("another user name");
        assertThatThrownBy(() -> PasswordHasher.hash("alice", "short".toCharArray()))
                .hasMessageContaining("shorter than 8");
        Path file = aclWith(user("alice", false));
        assertThat(Files.readString(file)).doesNotContain(PASSWORD);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void signaturesCoverCodeFieldsBodyAndTime() throws IOException {
        AccessController access = new AccessController(new AclStore(aclWith(user("alice", false)), clock::get),
                60_000, clock::get);
        Credentials alice = Credentials.of("alice", PASSWORD);
        byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
        Map<String, String> fields = signed(alice, 10, Map.of("topic", "orders"), body);
        assertThat(access.authenticate(10, fields, body).user().name()).isEqualTo("alice");

        assertThat(access.authenticate(11, fields, body).failure()).as("other code").contains("unknown user or wrong");
        assertThat(access.authenticate(10, fields, "hellO".getBytes(StandardCharsets.UTF_8)).succeeded()).isFalse();
        Map<String, String> tampered = new HashMap<>(fields);
        tampered.put("topic", "payroll");
        assertThat(access.authenticate(10, tampered, body).succeeded()).isFalse();
        Map<String, String> split = new HashMap<>(signed(alice, 10, Map.of("a", "1\u0000b"), null));
        split.remove("a");
        split.put("a", "1");
        split.put("b", "");
        assertThat(access.authenticate(10, split, null).succeeded()).as("no field can pose as two").isFalse();

        Credentials wrong = Credentials.of("alice", "not the password");
        assertThat(access.authenticate(10, signed(wrong, 10, Map.of(), null), null).failure())
                .isEqualTo("authentication of user 'alice' failed: unknown user or wrong password");
        Credentials stranger = Credentials.of("mallory", PASSWORD);
        assertThat(access.authenticate(10, signed(stranger, 10, Map.of(), null), null).failure())
                .as("same sentence: user names cannot be probed")
                .isEqualTo("authentication of user 'mallory' failed: unknown user or wrong password");
        assertThat(access.authenticate(10, Map.of("topic", "t"), null).failure()).contains("no credentials");

        clock.addAndGet(60_001);
        assertThat(access.authenticate(10, fields, body).failure()).as("a replay after the window")
                .contains("outside the 60000 ms window");
    }

    @Test
    void policiesDenyWinsPrefixesAndInternalTopics() throws IOException {
        User app = user("app", false, Policy.allow("topic:orders-*", Action.PUB, Action.SUB),
                Policy.deny("topic:orders-secret", Action.SUB), Policy.allow("group:*", Action.SUB));
        AccessController access = new AccessController(new AclStore(aclWith(app, user("root", true)), clock::get),
                60_000, clock::get);
        User loaded = access.users().user("app");
        assertThat(access.authorize(loaded, Resource.topic("orders-eu"), Action.PUB)).isNull();
        assertThat(access.authorize(loaded, Resource.group("anything"), Action.SUB)).isNull();
        assertThat(access.authorize(loaded, Resource.topic("orders-secret"), Action.PUB)).isNull();
        assertThat(access.authorize(loaded, Resource.topic("orders-secret"), Action.SUB))
                .isEqualTo("user 'app' is denied SUB on topic:orders-secret by the policy DENY [SUB] on"
                        + " topic:orders-secret");
        assertThat(access.authorize(loaded, Resource.topic("payroll"), Action.SUB))
                .startsWith("user 'app' lacks SUB on topic:payroll");
        assertThat(access.authorize(loaded, Resource.topic("orders-eu"), Action.ADMIN)).contains("lacks ADMIN");
        assertThat(access.authorize(loaded, Resource.topic("RMQ_SYS_TRANS_HALF_TOPIC"), Action.SUB))
                .contains("internal topic");
        User root = access.users().user("root");
        assertThat(access.authorize(root, Resource.topic("RMQ_SYS_TRANS_HALF_TOPIC"), Action.ADMIN)).isNull();
    }

    @Test
    void theFileIsReloadedWhenItChangesAndABrokenEditKeepsTheOldUsers() throws IOException {
        Path file = aclWith(user("alice", false));
        AclStore store = new AclStore(file, clock::get);
        assertThat(store.user("bob")).isNull();
        AclFile.write(file, List.of(user("alice", false), user("bob", false, Policy.allow("topic:t", Action.PUB))));
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
        assertThat(store.user("bob")).as("not before the check interval").isNull();
        clock.addAndGet(AclStore.CHECK_INTERVAL_MILLIS);
        assertThat(store.user("bob")).isNotNull();
        assertThat(store.user("bob").policies()).hasSize(1);

        Files.writeString(file, "{ \"users\": [ { \"name\": \"x\" } ] }");
        clock.addAndGet(AclStore.CHECK_INTERVAL_MILLIS);
        assertThat(store.user("bob")).as("a broken file keeps the users loaded before").isNotNull();
        assertThatThrownBy(() -> AclFile.read(file)).hasMessageContaining("users[0] (x) needs a \"password\" string");
    }

    @Test
    void resourcePatternsAndCredentialSettingsAreChecked() {
        assertThat(ResourcePattern.parse("topic:a*").matches(Resource.topic("abc"))).isTrue();
        assertThat(ResourcePattern.parse("topic:*").matches(Resource.group("abc"))).isFalse();
        assertThatThrownBy(() -> ResourcePattern.parse("queue:a")).hasMessageContaining("unknown type 'queue'");
        assertThatThrownBy(() -> ResourcePattern.parse("topic:a*b")).hasMessageContaining("may only end with '*'");
        assertThat(Credentials.parse("{\"accessKey\":\"broker\", \"secretKey\":\"p\\\"assword1\"}", "k").user())
                .isEqualTo("broker");
        assertThat(Credentials.parse("broker:password1", "k").toString()).isEqualTo("Credentials{user=broker}");
        assertThatThrownBy(() -> Credentials.parse("broker", "innerClientAuthenticationCredentials"))
                .hasMessageContaining("innerClientAuthenticationCredentials must be").hasMessageNotContaining("broker");
    }
}
