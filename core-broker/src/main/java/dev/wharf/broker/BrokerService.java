package dev.wharf.broker;

/**
 * A service that lives as long as the broker (scheduled delivery, transaction check-back, ...). Services
 * added with {@link Broker#addService} start after the store and the managers are loaded and before the
 * broker accepts connections, and stop, in reverse order, after it stopped accepting and before the store
 * shuts down.
 */
public interface BrokerService {

    /** A name for logs. */
    String name();

    void start() throws Exception;

    /** Stops the service; must not throw. */
    void shutdown();
}
