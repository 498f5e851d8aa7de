package dev.wharf.spring.boot.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/** Matches when no {@code wharf.url} is set and {@code wharf.embedded.enabled} is not false. */
final class OnEmbeddedBrokerCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Environment env = context.getEnvironment();
        if (StringUtils.hasText(env.getProperty("wharf.url"))) {
            return ConditionOutcome.noMatch("wharf.url names a broker");
        }
        if (!env.getProperty("wharf.embedded.enabled", Boolean.class, true)) {
            return ConditionOutcome.noMatch("wharf.embedded.enabled is false");
        }
        return ConditionOutcome.match("no wharf.url: the broker runs inside the application");
    }
}
