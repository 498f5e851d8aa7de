package dev.wharf.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.remoting.NettyServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NameServer started beside a broker takes its security; a broker unable to register with it does not start. */
class EmbeddedServerSecurityTest {

    @TempDir
    Path dir;

    private BrokerSettings settings() {
        BrokerSettings settings = BrokerSettings.defaults();
        settings.store().setStorePathRootDir(dir.resolve("store").toString());
        settings.netty().setListenPort(0);
        return settings;
    }

    @Test
    void theNameServerTakesTheBrokersTlsAuthenticationAndUsersFile() {
        BrokerSettings settings = settings();
        settings.netty().setAclEnable(true);
        settings.netty().setTlsMode("permissive");
        settings.netty().setTlsServerCertPath("server.p12");
        settings.netty().setTlsServerKeyPassword("secret");
        settings.netty().setTlsServerNeedClientAuth(true);
        settings.netty().setTlsServerTrustCertPath("clients.pem");

        NettyServerConfig ns = EmbeddedServer.sharedSecurity(settings, new NettyServerConfig());

        assertThat(ns.isAclEnable()).isTrue();
        assertThat(ns.getAclFile()).isEqualTo(dir.resolve("store").resolve("config").resolve("acl.json").toString());
        assertThat(ns.getTlsMode()).isEqualTo("permissive");
        assertThat(ns.getTlsServerCertPath()).isEqualTo("server.p12");
        assertThat(ns.getTlsServerKeyPassword()).isEqualTo("secret");
        assertThat(ns.isTlsServerNeedClientAuth()).isTrue();
        assertThat(ns.getTlsServerTrustCertPath()).isEqualTo("clients.pem");

        settings.netty().setAclFile("/etc/wharf/acl.json");
        assertThat(EmbeddedServer.sharedSecurity(settings, new NettyServerConfig()).getAclFile())
                .isEqualTo("/etc/wharf/acl.json");
    }

    @Test
    void defaultsStayPlainAndOpen() {
        NettyServerConfig ns = EmbeddedServer.sharedSecurity(settings(), new NettyServerConfig());
        assertThat(ns.isAuthenticationEnabled()).isFalse();
        assertThat(ns.isAuthorizationEnabled()).isFalse();
        assertThat(ns.isTlsEnable()).isFalse();
    }

    @Test
    void aBrokerWithoutInnerCredentialsOrTlsFailsBeforeAnythingStarts() {
        BrokerSettings authenticating = settings();
        authenticating.netty().setAclEnable(true);
        assertThatThrownBy(() -> EmbeddedServer.start(authenticating, 0)).isInstanceOf(EmbeddedServerException.class)
                .hasMessageContaining("innerClientAuthenticationCredentials is not set")
                .hasMessageContaining("ADMIN on cluster:" + authenticating.broker().getBrokerClusterName())
                .satisfies(e -> assertThat(((EmbeddedServerException) e).part())
                        .isEqualTo(EmbeddedServerException.Part.SECURITY));

        BrokerSettings tls = settings();
        tls.netty().setTlsMode("enforcing");
        assertThatThrownBy(() -> EmbeddedServer.start(tls, 0)).isInstanceOf(EmbeddedServerException.class)
                .hasMessageContaining("innerClientTlsEnable is false")
                .satisfies(e -> assertThat(((EmbeddedServerException) e).part())
                        .isEqualTo(EmbeddedServerException.Part.SECURITY));
        assertThat(Files.exists(dir.resolve("store"))).as("no store was opened").isFalse();
    }
}
