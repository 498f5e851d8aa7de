package dev.wharf.console;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the console ({@code wharf.console.*}).
 *
 * @param namesrv        NameServer address(es) of the cluster, {@code host:port[;host:port]}
 * @param sampleInterval how often topic rates and group lags are sampled for the charts
 * @param history        how much chart history is kept
 * @param maxTracked     most topics and groups sampled at once (the ones looked at most recently)
 */
@ConfigurationProperties("wharf.console")
public record ConsoleSettings(String namesrv, Duration sampleInterval, Duration history, Integer maxTracked) {

    public ConsoleSettings {
        if (sampleInterval == null) {
            sampleInterval = Duration.ofSeconds(5);
        }
        if (history == null) {
            history = Duration.ofMinutes(10);
        }
        if (maxTracked == null) {
            maxTracked = 50;
        }
    }
}
