package dev.wharf.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.security.AclFile;
import dev.wharf.security.Action;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Policy;
import dev.wharf.security.User;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;

/** wharf.user / wharf.password / wharf.tls.* and an embedded broker secured through wharf.embedded.broker.*. */
class WharfSecurityAutoConfigurationTest {

    private static final String PASSWORD = "spring-password-1";
    private static final String BROKER_PASSWORD = "broker-password-1";
    private static final String BROKER_CREDENTIALS = "wharf.embedded.broker.inner-client-authentication-credentials="
            + "{\"accessKey\":\"broker\",\"secretKey\":\"" + BROKER_PASSWORD + "\"}";

    @TempDir
    Path dir;

    @Test
    void anApplicationSignsAsItsUserAgainstASecuredEmbeddedBroker() throws Exception {
        Path acl = dir.resolve("acl.json");
        writeUsers(acl);
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WharfAutoConfiguration.class, JmsAutoConfiguration.class))
                .withPropertyValues("wharf.embedded.store-dir=" + dir.resolve("store"),
                        "wharf.embedded.broker.acl-enable=true", "wharf.embedded.broker.acl-file=" + acl,
                        BROKER_CREDENTIALS, "wharf.user=app", "wharf.password=" + PASSWORD, "spring.jms.template.receive-timeout=20s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(EmbeddedWharfBroker.class).isRunning()).isTrue();
                    ConnectionFactory bean = context.getBean(ConnectionFactory.class);
                    WharfConnectionFactory factory = (WharfConnectionFactory) ((CachingConnectionFactory) bean)
                            .getTargetConnectionFactory();
                    assertThat(factory.getUser()).isEqualTo("app");
                    assertThat(factory.isTls()).isFalse();
                    JmsTemplate template = context.getBean(JmsTemplate.class);
                    template.convertAndSend("greetings", "hello");
                    assertThat(template.receiveAndConvert("greetings")).isEqualTo("hello");
                });
    }

    @Test
    void theEmbeddedNameServerIsSecuredWithItsBrokerOverTlsAndAcl() throws Exception {
        Path acl = dir.resolve("acl.json");
        writeUsers(acl);
        Path store = dir.resolve("server.p12");
        Path pem = dir.resolve("server.pem");
        selfSignedCertificate(store, pem);
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WharfAutoConfiguration.class, JmsAutoConfiguration.class))
                .withPropertyValues("wharf.embedded.store-dir=" + dir.resolve("store"),
                        "wharf.embedded.broker.acl-enable=true", "wharf.embedded.broker.acl-file=" + acl,
                        "wharf.embedded.broker.tls-mode=enforcing", "wharf.embedded.broker.tls-server-cert-path=" + store,
                        "wharf.embedded.broker.tls-server-key-password=test-store-pass", BROKER_CREDENTIALS,
                        "wharf.embedded.broker.inner-client-tls-enable=true",
                        "wharf.embedded.broker.inner-client-tls-trust-cert-path=" + pem,
                        "wharf.user=app", "wharf.password=" + PASSWORD, "wharf.tls.enabled=true",
                        "wharf.tls.trust-cert-path=" + pem, "spring.jms.template.receive-timeout=20s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    EmbeddedWharfBroker embedded = context.getBean(EmbeddedWharfBroker.class);
                    JmsTemplate template = context.getBean(JmsTemplate.class);
                    template.convertAndSend("greetings", "hello over TLS");
                    assertThat(template.receiveAndConvert("greetings")).isEqualTo("hello over TLS");

                    // the NameServer the broker registered with refuses a client that does not sign
                    ClientConfig anonymous = new ClientConfig();
                    anonymous.setNamesrvAddr(embedded.namesrvAddr());
                    anonymous.setTlsEnable(true);
                    anonymous.setTlsTrustCertPath(pem.toString());
                    AdminClient admin = new AdminClient(anonymous);
                    admin.start();
                    try {
                        assertThatThrownBy(() -> admin.route("greetings")).isInstanceOf(ClientException.class)
                                .satisfies(e -> assertThat(((ClientException) e).responseCode())
                                        .isEqualTo(ResponseCode.AUTHENTICATION_FAILED));
                    } finally {
                        admin.shutdown();
                    }
                });
    }

    @Test
    void anEmbeddedBrokerThatAuthenticatesNeedsTheCredentialsToRegisterWithItsNameServer() throws Exception {
        Path acl = dir.resolve("acl.json");
        writeUsers(acl);
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WharfAutoConfiguration.class, JmsAutoConfiguration.class))
                .withPropertyValues("wharf.embedded.store-dir=" + dir.resolve("store"),
                        "wharf.embedded.broker.acl-enable=true", "wharf.embedded.broker.acl-file=" + acl)
                .run(context -> assertThat(context).getFailure()
                        .hasStackTraceContaining("innerClientAuthenticationCredentials is not set")
                        .hasStackTraceContaining("ADMIN on cluster:")
                        .hasStackTraceContaining("wharf.embedded.broker.inner-client-authentication-credentials"));
    }

    @Test
    void tlsPropertiesBindOntoTheFactory() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WharfAutoConfiguration.class, JmsAutoConfiguration.class))
                .withPropertyValues("wharf.url=wharf://127.0.0.1:1", "wharf.tls.enabled=true",
                        "wharf.tls.trust-cert-path=/etc/wharf/ca.pem", "wharf.tls.verify-hostname=false")
                .run(context -> {
                    WharfConnectionFactory factory = (WharfConnectionFactory) ((CachingConnectionFactory) context
                            .getBean(ConnectionFactory.class)).getTargetConnectionFactory();
                    assertThat(factory.isTls()).isTrue();
                    assertThat(factory.getTlsTrustCertPath()).isEqualTo("/etc/wharf/ca.pem");
                    assertThat(factory.isTlsVerifyHostname()).isFalse();
                });
    }

    @Test
    void anSslBundleCarriesTheTrustOfTheClientsTls() throws Exception {
        Path store = dir.resolve("server.p12");
        Path pem = dir.resolve("server.pem");
        selfSignedCertificate(store, pem);
        NettyServerConfig nsNetty = new NettyServerConfig();
        nsNetty.setListenPort(0);
        tls(nsNetty, store);
        NameServer nameServer = new NameServer(new NameServerConfig(), nsNetty);
        nameServer.start();
        Broker broker = null;
        try {
            BrokerSettings settings = BrokerSettings.defaults();
            settings.store().setStorePathRootDir(dir.resolve("store").toString());
            settings.netty().setListenPort(0);
            tls(settings.netty(), store);
            settings.broker().setNamesrvAddr(nameServer.address());
            settings.broker().innerClient().setInnerClientTlsEnable(true);
            settings.broker().innerClient().setInnerClientTlsTrustCertPath(pem.toString());
            broker = new Broker(settings);
            broker.start();
            broker.registerWithNameServers().join();
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, WharfAutoConfiguration.class,
                            JmsAutoConfiguration.class))
                    .withPropertyValues("wharf.url=wharf://" + nameServer.address(),
                            "spring.ssl.bundle.pem.wharf-servers.truststore.certificate=file:" + pem,
                            "wharf.ssl.bundle=wharf-servers", "spring.jms.template.receive-timeout=20s")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        WharfConnectionFactory factory = (WharfConnectionFactory) ((CachingConnectionFactory) context
                                .getBean(ConnectionFactory.class)).getTargetConnectionFactory();
                        assertThat(factory.isTls()).isTrue();
                        JmsTemplate template = context.getBean(JmsTemplate.class);
                        template.convertAndSend("bundled", "over TLS");
                        assertThat(template.receiveAndConvert("bundled")).isEqualTo("over TLS");
                    });
        } finally {
            if (broker != null) {
                broker.shutdown();
            }
            nameServer.shutdown();
        }
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, WharfAutoConfiguration.class,
                        JmsAutoConfiguration.class))
                .withPropertyValues("wharf.url=wharf://127.0.0.1:1", "wharf.ssl.bundle=nowhere")
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("wharf.ssl.bundle")
                        .hasMessageContaining("spring.ssl.bundle.pem.nowhere"));
    }

    /** A user for the application and one the broker registers as (ADMIN on the cluster). */
    private static void writeUsers(Path acl) throws Exception {
        AclFile.write(acl, List.of(new User("app", PasswordHasher.hash("app", PASSWORD.toCharArray()), false,
                        List.of(Policy.allow("topic:greetings", Action.PUB, Action.SUB),
                                Policy.allow("group:greetings", Action.SUB))),
                new User("broker", PasswordHasher.hash("broker", BROKER_PASSWORD.toCharArray()), false,
                        List.of(Policy.allow("cluster:*", Action.ADMIN)))));
    }

    private static void selfSignedCertificate(Path store, Path pem) throws Exception {
        keytool("-genkeypair", "-alias", "wharf", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=wharf", "-ext", "san=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "test-store-pass");
        keytool("-exportcert", "-rfc", "-alias", "wharf", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", "test-store-pass", "-file", pem.toString());
    }

    private static void tls(NettyServerConfig config, Path keyStore) {
        config.setTlsMode("enforcing");
        config.setTlsServerCertPath(keyStore.toString());
        config.setTlsServerKeyPassword("test-store-pass");
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as("keytool %s: %s", args[0], output)
                .isTrue();
    }
}
