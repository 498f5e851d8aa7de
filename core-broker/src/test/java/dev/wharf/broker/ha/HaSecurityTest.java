package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.remoting.tls.TestCertificates;
import dev.wharf.security.AclFile;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Policy;
import dev.wharf.security.Action;
import dev.wharf.security.User;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.PutMessageStatus;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The HA port with aclEnable and TLS: a slave holding the group's credential replicates (over TLS too); a replica
 * without credentials, with a wrong password or without TLS gets a refusal naming why and not one byte of the log;
 * a rogue master that cannot prove the credential feeds the slave nothing.
 */
@Timeout(120)
class HaSecurityTest {

    private static final String PASSWORD = "replication-secret-1";

    @TempDir
    Path dir;
    private HaCluster cluster;
    private Path aclFile;
    private final ListAppender<ILoggingEvent> haLog = new ListAppender<>();
    private final Logger connectionLog = (Logger) LoggerFactory.getLogger(HaConnection.class);

    @BeforeEach
    void setUp() throws Exception {
        cluster = new HaCluster();
        aclFile = dir.resolve("acl.json");
        AclFile.write(aclFile, List.of(
                new User("broker", PasswordHasher.hash("broker", PASSWORD.toCharArray()), false,
                        List.of(Policy.allow("cluster:*", Action.ADMIN))),
                new User("app", PasswordHasher.hash("app", PASSWORD.toCharArray()), false,
                        List.of(Policy.allow("topic:*", Action.PUB)))));
        haLog.start();
        connectionLog.addAppender(haLog);
    }

    @AfterEach
    void tearDown() {
        connectionLog.detachAppender(haLog);
        cluster.close();
    }

    private void secured(BrokerSettings s, String credentials) {
        s.netty().setAclEnable(true);
        s.netty().setAclFile(aclFile.toString());
        if (credentials != null) {
            s.broker().innerClient().setInnerClientAuthenticationCredentials(credentials);
        }
    }

    private static void put(Broker master, int count) {
        for (int i = 0; i < count; i++) {
            MessageToStore msg = new MessageToStore();
            msg.setTopic("ha-secure");
            msg.setBody(("secret payload " + i).getBytes());
            msg.setBornTimestamp(System.currentTimeMillis());
            assertThat(master.store().putMessage(msg).status()).isEqualTo(PutMessageStatus.PUT_OK);
        }
    }

    private List<String> errors() {
        return haLog.list.stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void onlyASlaveHoldingTheCredentialReplicates() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("master"), BrokerRole.ASYNC_MASTER,
                s -> secured(s, "broker:" + PASSWORD));
        put(master, 300);
        Broker slave = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(),
                s -> secured(s, "broker:" + PASSWORD));
        ReplicationTest.awaitCaughtUp(master, slave);

        // a replica without credentials: refused at its first frame, and nothing of the log comes
        try (FakePeer rogue = FakePeer.connect(master.haAddress())) {
            rogue.handshake(HaCluster.NAME, 7, 0, -1, 0, 0);
            rogue.read();
            assertThat(rogue.type).as("the first answer is the refusal, no ACCEPTED or TRANSFER")
                    .isEqualTo(HaFrame.TYPE_REFUSED);
            int reason = rogue.body.getInt();
            assertThat(reason).isEqualTo(HaFrame.REFUSED_AUTHENTICATION);
            assertThat(rogue.closedByPeer()).isTrue();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> errors().stream().anyMatch(m ->
                m.contains("Refusing HA connection") && m.contains("authentication failed")
                        && m.contains("without credentials") && m.contains("innerClientAuthenticationCredentials")));

        // a replica with a wrong password and one whose user lacks the right copy nothing
        Broker wrong = cluster.startSlave(dir.resolve("wrong"), 2, master.haAddress(),
                s -> secured(s, "broker:not-the-password"));
        Broker unprivileged = cluster.startSlave(dir.resolve("unprivileged"), 3, master.haAddress(),
                s -> secured(s, "app:" + PASSWORD));
        await().atMost(Duration.ofSeconds(10)).until(() -> wrong.ha().slaveStatus().lastRefusal() != null
                && unprivileged.ha().slaveStatus().lastRefusal() != null);
        assertThat(wrong.ha().slaveStatus().lastRefusal()).startsWith("authentication failed")
                .contains("could not prove").contains("'broker'").doesNotContain("not-the-password");
        assertThat(unprivileged.ha().slaveStatus().lastRefusal()).startsWith("not authorized")
                .contains("user 'app' lacks ADMIN on cluster:");
        assertThat(wrong.store().getMaxPhyOffset()).isZero();
        assertThat(unprivileged.store().getMaxPhyOffset()).isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> errors().stream().anyMatch(m ->
                m.contains("authentication of user 'broker'") && m.contains("did not accept this master's proof")));
        assertThat(errors()).noneMatch(m -> m.contains(PASSWORD) || m.contains("not-the-password"));

        // the real slave kept following
        put(master, 50);
        ReplicationTest.awaitCaughtUp(master, slave);
        assertThat(master.ha().replicas()).extracting(ReplicaStatus::brokerId).containsExactly(1L);
    }

    @Test
    void aSlaveRefusesAMasterThatCannotProveTheCredential() throws Exception {
        try (ServerSocketChannel fakeMaster = ServerSocketChannel.open()) {
            fakeMaster.bind(new InetSocketAddress("127.0.0.1", 0));
            String address = "127.0.0.1:" + ((InetSocketAddress) fakeMaster.getLocalAddress()).getPort();
            Broker slave = cluster.startSlave(dir.resolve("slave"), 1, address,
                    s -> secured(s, "broker:" + PASSWORD));
            try (FakePeer peer = FakePeer.of(fakeMaster.accept())) {
                peer.read();
                assertThat(peer.type).as("the slave opens with AUTH, not its log position").isEqualTo(
                        HaFrame.TYPE_AUTH);
                // a challenge with a made-up proof, then data the slave must never take
                peer.write(HaFrame.TYPE_CHALLENGE, ByteBuffer.allocate(HaFrame.CHALLENGE_SIZE));
                assertThat(peer.readRefusal()).startsWith("authentication failed")
                        .contains("could not verify the master's proof");
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> slave.ha().slaveStatus().lastRefusal() != null);
            assertThat(slave.ha().slaveStatus().lastRefusal()).contains("could not prove it holds the key of user"
                    + " 'broker'");
            assertThat(slave.store().getMaxPhyOffset()).isZero();
        }
    }

    @Test
    void replicationRunsOverTlsAndAPlainReplicaIsRefused() throws Exception {
        TestCertificates certs = TestCertificates.create(dir, "ha");
        Broker master = cluster.startMaster(dir.resolve("master"), BrokerRole.SYNC_MASTER, s -> {
            secured(s, "broker:" + PASSWORD);
            s.netty().setTlsMode("enforcing");
            s.netty().setTlsServerCertPath(certs.keyStore().toString());
            s.netty().setTlsServerKeyPassword(TestCertificates.STORE_PASSWORD);
        });
        Broker slave = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> {
            secured(s, "broker:" + PASSWORD);
            s.broker().innerClient().setInnerClientTlsEnable(true);
            s.broker().innerClient().setInnerClientTlsTrustCertPath(certs.certificatePem().toString());
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> slave.ha().slaveStatus().connected());
        put(master, 300); // SYNC_MASTER: each put returns once the slave holds it, over TLS
        ReplicationTest.awaitCaughtUp(master, slave);

        try (FakePeer plain = FakePeer.connect(master.haAddress())) {
            plain.handshake(HaCluster.NAME, 7, 0, -1, 0, 0);
            assertThat(plain.readRefusal()).startsWith("TLS required").contains("innerClientTlsEnable");
        }
        // a slave that speaks TLS but does not trust the master's certificate says so
        TestCertificates other = TestCertificates.create(dir, "other");
        Broker distrustful = cluster.startSlave(dir.resolve("distrustful"), 2, master.haAddress(), s -> {
            secured(s, "broker:" + PASSWORD);
            s.broker().innerClient().setInnerClientTlsEnable(true);
            s.broker().innerClient().setInnerClientTlsTrustCertPath(other.certificatePem().toString());
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> distrustful.ha().slaveStatus().lastRefusal() != null);
        assertThat(distrustful.ha().slaveStatus().lastRefusal()).startsWith("TLS required")
                .contains("TLS handshake with the master");
        assertThat(distrustful.store().getMaxPhyOffset()).isZero();
        put(master, 10);
        ReplicationTest.awaitCaughtUp(master, slave);
    }
}
