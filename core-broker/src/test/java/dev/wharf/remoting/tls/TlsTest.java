package dev.wharf.remoting.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.exception.RemotingException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on a real NameServer port with certificates made by keytool: a trusted certificate works, an untrusted one and
 * a plain client are refused, permissive mode serves both, mutual TLS refuses a client without a certificate.
 */
class TlsTest {

    @TempDir
    static Path dir;
    private static TestCertificates server;
    private static TestCertificates stranger;
    private static TestCertificates client;
    private final List<Runnable> closers = new ArrayList<>();

    @BeforeAll
    static void certificates() throws Exception {
        server = TestCertificates.create(dir, "server");
        stranger = TestCertificates.create(dir, "stranger");
        client = TestCertificates.create(dir, "client");
    }

    @AfterEach
    void close() {
        closers.forEach(Runnable::run);
    }

    private String nameServer(Consumer<NettyServerConfig> tls) {
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(0);
        config.setBindAddress("127.0.0.1");
        config.setTlsServerCertPath(server.keyStore().toString());
        config.setTlsServerKeyPassword(TestCertificates.STORE_PASSWORD);
        tls.accept(config);
        NameServer ns = new NameServer(new NameServerConfig(), config);
        ns.start();
        closers.add(ns::shutdown);
        return ns.address();
    }

    private NettyRemotingClient client(TlsClientSettings tls) {
        NettyClientConfig config = new NettyClientConfig();
        config.setConnectTimeoutMillis(2_000);
        NettyRemotingClient c = new NettyRemotingClient(config);
        if (tls != null) {
            c.setPipelineHook(tls.hook());
        }
        c.start();
        closers.add(0, c::shutdown);
        return c;
    }

    private static TlsClientSettings trusting(TestCertificates trusted) {
        return new TlsClientSettings(trusted.certificatePem().toString(), "", "", "", true);
    }

    private static RemotingCommand ask(NettyRemotingClient c, String address) throws Exception {
        return c.invokeSync(address, RemotingCommand.createRequest(RequestCode.GET_BROKER_CLUSTER_INFO), 10_000);
    }

    @Test
    void enforcingServesTrustingClientsOnlyOverTls() throws Exception {
        String address = nameServer(c -> c.setTlsMode("enforcing"));
        assertThat(ask(client(trusting(server)), address).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThatThrownBy(() -> ask(client(trusting(stranger)), address)).as("an untrusted server certificate")
                .isInstanceOf(RemotingException.class);
        assertThatThrownBy(() -> ask(client(null), address)).as("a plain client on a TLS-only port")
                .isInstanceOf(RemotingException.class);
    }

    @Test
    void theServerCertificateMustNameTheHost() throws Exception {
        // 127.0.0.2 is loopback too, but the certificate names 127.0.0.1 and localhost only
        String byOtherName = nameServer(c -> {
            c.setTlsEnable(true);
            c.setBindAddress("127.0.0.2");
        });
        assertThatThrownBy(() -> ask(client(trusting(server)), byOtherName)).isInstanceOf(RemotingException.class);
        TlsClientSettings lax = new TlsClientSettings(server.certificatePem().toString(), "", "", "", false);
        assertThat(ask(client(lax), byOtherName).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void permissiveServesTlsAndPlainSideBySide() throws Exception {
        String address = nameServer(c -> c.setTlsMode("permissive"));
        assertThat(ask(client(trusting(server)), address).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(ask(client(null), address).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void mutualTlsRefusesAClientWithoutACertificate() throws Exception {
        String address = nameServer(c -> {
            c.setTlsMode("enforcing");
            c.setTlsServerNeedClientAuth(true);
            c.setTlsServerTrustCertPath(client.certificatePem().toString());
        });
        assertThatThrownBy(() -> ask(client(trusting(server)), address)).isInstanceOf(RemotingException.class);
        TlsClientSettings withCertificate = new TlsClientSettings(server.certificatePem().toString(),
                client.keyStore().toString(), "", TestCertificates.STORE_PASSWORD, true);
        assertThat(ask(client(withCertificate), address).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void missingFilesAreNamed() {
        assertThatThrownBy(() -> nameServer(c -> {
            c.setTlsMode("enforcing");
            c.setTlsServerCertPath(dir.resolve("nope.pem").toString());
            c.setTlsServerKeyPath(dir.resolve("nope.key").toString());
        })).hasMessageContaining("tlsServerCertPath names").hasMessageContaining("nope.pem");
        assertThatThrownBy(() -> new NettyServerConfig().setTlsMode("sometimes"))
                .hasMessageContaining("tlsMode must be disabled, permissive or enforcing");
    }
}
