package dev.wharf.console;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the console ({@code wharf.console.*}).
 *
 * @param namesrv          NameServer address(es) of the cluster, {@code host:port[;host:port]}
 * @param sampleInterval   how often topic rates and group lags are sampled for the charts
 * @param history          how much chart history is kept
 * @param maxTracked       most topics and groups sampled at once (the ones looked at most recently)
 * @param usersFile        the console's users, in the broker's users-file format ({@code acl.json}); unset: no
 *                         login (allowed on loopback only, unless {@code insecure})
 * @param insecure         run without a login on a non-loopback address, on purpose
 * @param clusterUser      the user the console's own requests to the cluster are signed as (a secured cluster)
 * @param clusterPassword  that user's password (better given as the environment variable
 *                         {@code WHARF_CONSOLE_CLUSTER_PASSWORD} than on the command line)
 * @param loginMaxFailures failed sign-ins from one address, or for one user name, within {@code loginWindow}
 *                         after which further attempts are refused until the window has passed
 * @param loginWindow      the window of {@code loginMaxFailures}
 */
@ConfigurationProperties("wharf.console")
public record ConsoleSettings(String namesrv, Duration sampleInterval, Duration history, Integer maxTracked,
                              String usersFile, Boolean insecure, String clusterUser, String clusterPassword,
                              Integer loginMaxFailures, Duration loginWindow) {

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
        if (insecure == null) {
            insecure = false;
        }
        if (loginMaxFailures == null) {
            loginMaxFailures = 5;
        }
        if (loginWindow == null) {
            loginWindow = Duration.ofMinutes(5);
        }
    }
}
