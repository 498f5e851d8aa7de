package dev.wharf.remoting.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.security.AclFile;
import dev.wharf.security.Action;
import dev.wharf.security.Credentials;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Policy;
import dev.wharf.security.RequestSignature;
import dev.wharf.security.User;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-connection session of {@link AclGuard} and {@link SigningHook}, on a real server and real connections:
 * a client authenticates each connection once and then sends its requests unsigned; the session belongs to its
 * connection and user; it cannot be opened without the key, nor by replaying another connection's handshake; a reload
 * of the users file that deletes the user or changes its password ends it at the next request.
 */
class SessionAuthenticationTest {

    private static final String PASSWORD = "alice-and-bob-pw";
    private static final String OTHER_PASSWORD = "a-new-password-1";

    @TempDir
    Path dir;
    private Path aclFile;
    private NettyRemotingServer server;
    private ServerSecurity security;
    private String address;
    private final ConcurrentLinkedQueue<Map<String, String>> served = new ConcurrentLinkedQueue<>();
    private final List<NettyRemotingClient> clients = new ArrayList<>();
    private ThreadPoolExecutor executor;

    /** Stored hashes and client keys by user and password: each costs a deliberately slow PBKDF2. */
    private static final Map<String, String> HASHES = new ConcurrentHashMap<>();
    private static final Map<String, Credentials> CREDENTIALS = new ConcurrentHashMap<>();

    private static User user(String name, String password, String topic) {
        String hash = HASHES.computeIfAbsent(name + ":" + password,
                k -> PasswordHasher.hash(name, password.toCharArray()));
        return new User(name, hash, false, List.of(Policy.allow("topic:" + topic, Action.PUB)));
    }

    private static Credentials credentials(String name, String password) {
        return CREDENTIALS.computeIfAbsent(name + ":" + password, k -> Credentials.of(name, password));
    }

    /** A server whose only processor accepts sends (PUB on the "topic" field) and records their fields. */
    private void startServer(Consumer<NettyServerConfig> settings) throws Exception {
        aclFile = dir.resolve("acl.json");
        AclFile.write(aclFile, List.of(user("alice", PASSWORD, "a"), user("bob", PASSWORD, "b")));
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(0);
        config.setAclEnable(true);
        config.setAclFile(aclFile.toString());
        settings.accept(config);
        server = new NettyRemotingServer(config);
        executor = RemotingExecutors.bounded("session-test", 2, 100);
        server.registerProcessor(RequestCode.SEND_MESSAGE, (channel, request) -> {
            served.add(Map.copyOf(request.extFields()));
            return RemotingCommand.createResponse(ResponseCode.SUCCESS, "sent");
        }, executor);
        security = ServerSecurity.install(server, config, null, "test server");
        server.start();
        address = "127.0.0.1:" + server.localPort();
    }

    @AfterEach
    void stop() {
        clients.forEach(NettyRemotingClient::shutdown);
        if (server != null) {
            server.shutdown();
        }
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    private NettyRemotingClient client(String user, String password) {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        if (user != null) {
            client.setRequestSigner(new SigningHook(credentials(user, password)));
        }
        client.start();
        clients.add(client);
        return client;
    }

    private NettyRemotingClient client(String user) {
        return client(user, PASSWORD);
    }

    private static RemotingCommand send(String topic) {
        return RemotingCommand.createRequest(RequestCode.SEND_MESSAGE).putExt("topic", topic);
    }

    private RemotingCommand call(NettyRemotingClient client, RemotingCommand request) throws Exception {
        return client.invokeSync(address, request, 5_000);
    }

    @Test
    void aConnectionAuthenticatesOnceAndItsRequestsGoUnsigned() throws Exception {
        startServer(c -> { });
        NettyRemotingClient alice = client("alice");
        for (int i = 0; i < 5; i++) {
            assertThat(call(alice, send("a")).code()).isEqualTo(ResponseCode.SUCCESS);
        }
        assertThat(served).hasSize(5).allSatisfy(fields -> assertThat(fields)
                .doesNotContainKeys(RequestSignature.ACCESS_KEY, RequestSignature.SIGNATURE));
        assertThat(security.guard().sessionsOpened()).isEqualTo(1);

        RemotingCommand denied = call(alice, send("b"));
        assertThat(denied.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(denied.remark()).contains("user 'alice' lacks PUB on topic:b");
    }

    @Test
    void theUserIsBoundPerConnection() throws Exception {
        startServer(c -> { });
        NettyRemotingClient alice = client("alice");
        NettyRemotingClient bob = client("bob");
        assertThat(call(alice, send("a")).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(call(bob, send("b")).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(call(bob, send("a")).remark()).contains("user 'bob' lacks PUB on topic:a");
        assertThat(call(alice, send("b")).remark()).contains("user 'alice' lacks PUB on topic:b");
        assertThat(security.guard().sessionsOpened()).isEqualTo(2);
    }

    @Test
    void aWrongPasswordOpensNoSessionAndEveryRequestIsRefused() throws Exception {
        startServer(c -> { });
        NettyRemotingClient intruder = client("alice", "not-alices-password");
        RemotingCommand refused = call(intruder, send("a"));
        assertThat(refused.code()).isEqualTo(ResponseCode.AUTHENTICATION_FAILED);
        assertThat(refused.remark()).contains("authentication of user 'alice' failed: unknown user or wrong password");
        assertThat(security.guard().sessionsOpened()).isZero();
        assertThat(security.guard().authenticationFailures()).as("the handshake and the request").isEqualTo(2);
        assertThat(served).isEmpty();
    }

    @Test
    void requestsBeforeTheHandshakeAndReplayedHandshakesAreRefused() throws Exception {
        startServer(c -> { });
        NettyRemotingClient first = client(null);
        RemotingCommand anonymous = call(first, send("a"));
        assertThat(anonymous.code()).isEqualTo(ResponseCode.AUTHENTICATION_FAILED);
        assertThat(anonymous.remark()).contains("carries no credentials").contains("no authenticated session");

        RemotingCommand unasked = handshake(credentials("alice", PASSWORD), SessionHandshake.nonce(),
                SessionHandshake.nonce());
        assertThat(call(first, unasked).remark()).contains("does not answer a challenge this server issued");

        // a session opened by hand, as an eavesdropper would see it
        String serverNonce = call(first, RemotingCommand.createRequest(RequestCode.AUTH_CHALLENGE))
                .ext(SessionHandshake.SERVER_NONCE);
        String clientNonce = SessionHandshake.nonce();
        RemotingCommand opened = call(first, handshake(credentials("alice", PASSWORD), serverNonce, clientNonce));
        assertThat(opened.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(call(first, send("a")).code()).isEqualTo(ResponseCode.SUCCESS);

        NettyRemotingClient second = client(null);
        assertThat(call(second, RemotingCommand.createRequest(RequestCode.AUTH_CHALLENGE)).code())
                .isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand replayed = copy(handshake(credentials("alice", PASSWORD), serverNonce, clientNonce));
        assertThat(call(second, replayed).code()).isEqualTo(ResponseCode.AUTHENTICATION_FAILED);
        assertThat(call(second, send("a")).remark()).as("the replay bound nothing")
                .contains("no authenticated session");
        assertThat(call(first, copy(replayed)).remark()).as("a challenge is answered once")
                .contains("does not answer a challenge");
    }

    @Test
    void aReloadThatChangesThePasswordOrDeletesTheUserEndsItsSessions() throws Exception {
        startServer(c -> { });
        NettyRemotingClient alice = client("alice");
        NettyRemotingClient bob = client("bob");
        assertThat(call(alice, send("a")).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(call(bob, send("b")).code()).isEqualTo(ResponseCode.SUCCESS);

        // rights only: the session stays and the new rights apply at once
        AclFile.write(aclFile, List.of(user("alice", PASSWORD, "a"), user("bob", PASSWORD, "x")));
        await().atMost(Duration.ofSeconds(10)).until(() -> call(bob, send("x")).code() == ResponseCode.SUCCESS);
        assertThat(call(bob, send("b")).remark()).contains("user 'bob' lacks PUB on topic:b");
        assertThat(security.guard().sessionsOpened()).isEqualTo(2);

        AclFile.write(aclFile, List.of(user("alice", OTHER_PASSWORD, "a")));
        await().atMost(Duration.ofSeconds(10)).until(() -> call(alice, send("a")).code() != ResponseCode.SUCCESS);
        // the ending request was refused naming the reason; the client reconnected, and its old password fails now
        RemotingCommand afterwards = call(alice, send("a"));
        assertThat(afterwards.code()).isEqualTo(ResponseCode.AUTHENTICATION_FAILED);
        assertThat(afterwards.remark()).contains("authentication of user 'alice' failed");
        RemotingCommand deleted = call(bob, send("x"));
        assertThat(deleted.code()).isEqualTo(ResponseCode.AUTHENTICATION_FAILED);
        assertThat(deleted.remark()).contains("the session of user 'bob' on this connection has ended");

        NettyRemotingClient renewed = client("alice", OTHER_PASSWORD);
        assertThat(call(renewed, send("a")).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void signEveryRequestKeepsPlainConnectionsSigned() throws Exception {
        startServer(c -> c.setAclSignEveryRequest(true));
        NettyRemotingClient plain = client("alice");
        assertThat(call(plain, send("a")).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(call(plain, send("a")).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(served).as("signed, as RocketMQ clients sign").hasSize(2).allSatisfy(fields ->
                assertThat(fields).containsKeys(RequestSignature.ACCESS_KEY, RequestSignature.SIGNATURE));
        assertThat(security.guard().sessionsOpened()).isZero();
        assertThat(call(plain, send("b")).remark()).contains("user 'alice' lacks PUB on topic:b");
    }

    @Test
    void aClientWithCredentialsStillWorksWithAServerWithoutAuthentication() throws Exception {
        startServer(c -> c.setAclEnable(false));
        NettyRemotingClient alice = client("alice");
        assertThat(call(alice, send("b")).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(security.guard()).isNull();
    }

    /** An AUTH_SESSION request signed with {@code credentials}, answering {@code serverNonce}. */
    private static RemotingCommand handshake(Credentials credentials, String serverNonce, String clientNonce) {
        RemotingCommand request = RemotingCommand.createRequest(RequestCode.AUTH_SESSION)
                .putExt(SessionHandshake.SERVER_NONCE, serverNonce)
                .putExt(SessionHandshake.CLIENT_NONCE, clientNonce);
        new SigningHook(credentials).sign(request);
        return request;
    }

    /** The same request under a new opaque, as a replaying attacker would send it. */
    private static RemotingCommand copy(RemotingCommand request) {
        RemotingCommand copy = RemotingCommand.createRequest(request.code());
        request.extFields().forEach(copy::putExt);
        return copy;
    }
}
