package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.common.TopicValidator;
import dev.wharf.jms.config.ConnectionOptions;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * The application's producer group: {@code wharf.producer-group}, else derived from {@code spring.application.name}
 * ({@code orders} → {@code orders-producer}), else the provider's default. The group matters for transactions: the
 * broker asks any live member about a transaction, and that member answers from its own database, so applications
 * with different databases need different groups.
 */
final class ProducerGroups {

    private ProducerGroups() {
    }

    static String resolve(WharfProperties properties, Environment environment) {
        if (StringUtils.hasText(properties.getProducerGroup())) {
            return properties.getProducerGroup().strip();
        }
        String app = environment.getProperty("spring.application.name");
        if (StringUtils.hasText(app)) {
            String group = app.strip().replaceAll("[^A-Za-z0-9_%|.-]", "-") + "-producer";
            if (TopicValidator.checkGroup(group) == null) {
                return group;
            }
        }
        return ConnectionOptions.DEFAULT_PRODUCER_GROUP;
    }

    static boolean isDefault(String group) {
        return ConnectionOptions.DEFAULT_PRODUCER_GROUP.equals(group);
    }
}
