package dev.wharf.spring.boot.actuate;

import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The health of the application's broker ({@link WharfHealthCheck}) as a Spring Boot health indicator. The Boot 3
 * starter compiles this source with the imports renamed to Boot 3's health packages.
 */
public final class WharfHealthIndicator extends AbstractHealthIndicator {

    private final WharfHealthCheck check;

    public WharfHealthIndicator(WharfConnectionDetails details, WharfBrokerClient client) {
        super("Wharf health check failed");
        this.check = new WharfHealthCheck(details, client);
    }

    /** With the states of the {@code @MessageListener} containers (see {@link WharfHealthCheck}). */
    public WharfHealthIndicator(WharfConnectionDetails details, WharfBrokerClient client,
                                Supplier<Map<String, String>> listenerStates) {
        super("Wharf health check failed");
        this.check = new WharfHealthCheck(details, client, listenerStates);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        builder.withDetail("url", check.url());
        WharfHealthCheck.Result result = check.check();
        builder.withDetails(result.details());
        if (result.up()) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
