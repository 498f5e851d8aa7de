package dev.wharf.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.security.AclFile;
import dev.wharf.security.Action;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Policy;
import dev.wharf.security.User;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;

/** wharf.user / wharf.password / wharf.tls.* and an embedded broker secured through wharf.embedded.broker.*. */
class WharfSecurityAutoConfigurationTest {

    private static final String PASSWORD = "spring-password-1";

    @TempDir
    Path dir;

    @Test
    void anApplicationSignsAsItsUserAgainstASecuredEmbeddedBroker() throws Exception {
        Path acl = dir.resolve("acl.json");
        AclFile.write(acl, List.of(new User("app", PasswordHasher.hash("app", PASSWORD.toCharArray()), false,
                List.of(Policy.allow("topic:greetings", Action.PUB, Action.SUB),
                        Policy.allow("group:greetings", Action.SUB)))));
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WharfAutoConfiguration.class, JmsAutoConfiguration.class))
                .withPropertyValues("wharf.embedded.store-dir=" + dir.resolve("store"),
                        "wharf.embedded.broker.acl-enable=true", "wharf.embedded.broker.acl-file=" + acl,
                        "wharf.user=app", "wharf.password=" + PASSWORD, "spring.jms.template.receive-timeout=20s")
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
}
