package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.client.ClientConfig;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.StringUtils;

/**
 * The low-level client settings of the listeners and the template: the broker of the application's connection
 * details, the credentials and TLS settings of {@code wharf.*}, and a client instance name of their own, so that
 * the consumers of two application contexts in one JVM (and the JMS connections) do not share a client id.
 */
final class MessagingClientConfigs {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private MessagingClientConfigs() {
    }

    static ClientConfig create(WharfConnectionDetails details, WharfProperties properties, String instanceName,
                               String role) {
        ClientConfig c = new ClientConfig();
        c.setNamesrvAddr(details.namesrvAddr());
        try {
            c.setInstanceName(StringUtils.hasText(instanceName) ? instanceName.strip() + "-" + role
                    : "spring-" + role + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationPropertyValueException("wharf.messaging.instance-name", instanceName,
                    e.getMessage());
        }
        if (StringUtils.hasText(properties.getUser())) {
            c.withCredentials(properties.getUser(), properties.getPassword());
        }
        WharfProperties.Tls tls = properties.getTls();
        if (tls.isEnabled()) {
            c.setTlsEnable(true);
            c.setTlsTrustCertPath(tls.getTrustCertPath());
            c.setTlsCertPath(tls.getCertPath());
            c.setTlsKeyPath(tls.getKeyPath());
            c.setTlsKeyPassword(tls.getKeyPassword());
            c.setTlsVerifyHostname(tls.isVerifyHostname());
        }
        return c;
    }
}
