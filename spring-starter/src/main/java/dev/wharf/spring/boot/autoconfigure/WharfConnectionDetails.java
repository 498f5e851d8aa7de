package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.jms.config.WharfConnectionConfig;
import dev.wharf.jms.vm.VmBrokerRegistry;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import jakarta.jms.JMSException;
import java.util.Objects;

/**
 * Where the application's Wharf broker is: the URL its connection factory uses and, when the broker runs inside the
 * application, the embedded broker itself. Health and metrics use it to reach the broker on their own.
 */
public final class WharfConnectionDetails {

    private final String url;
    private final EmbeddedWharfBroker embeddedBroker;

    public WharfConnectionDetails(String url, EmbeddedWharfBroker embeddedBroker) {
        this.url = Objects.requireNonNull(url, "url");
        this.embeddedBroker = embeddedBroker;
    }

    /** The broker URL of the connection factory. */
    public String url() {
        return url;
    }

    /** The embedded broker, or null when the application uses a broker elsewhere. */
    public EmbeddedWharfBroker embeddedBroker() {
        return embeddedBroker;
    }

    /**
     * The NameServer addresses in RocketMQ's form ({@code host:port;host:port}); for a {@code vm://} URL, those of the
     * in-JVM broker (started if it does not run yet, as the connection factory would).
     *
     * @throws IllegalStateException when the in-JVM broker of a vm:// URL cannot start
     */
    public String namesrvAddr() {
        WharfConnectionConfig config = WharfConnectionConfig.parse(url);
        if (!config.isVm()) {
            return config.namesrvAddr();
        }
        try {
            return VmBrokerRegistry.shared().acquire(config).namesrvAddr();
        } catch (JMSException e) {
            throw new IllegalStateException("The broker " + url + " is not running: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "WharfConnectionDetails{" + url + (embeddedBroker != null ? ", embedded" : "") + "}";
    }
}
