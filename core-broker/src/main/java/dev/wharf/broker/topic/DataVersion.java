package dev.wharf.broker.topic;

import dev.wharf.protocol.body.RouteData;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Version of the broker's topic table: a counter bumped by every change plus the time of the change. The
 * NameServers compare it to skip unchanged re-registrations. Thread-safe.
 */
public final class DataVersion {

    private final AtomicReference<RouteData.DataVersion> current;

    public DataVersion() {
        this(new RouteData.DataVersion(System.currentTimeMillis(), 0L));
    }

    public DataVersion(RouteData.DataVersion initial) {
        this.current = new AtomicReference<>(initial);
    }

    public RouteData.DataVersion current() {
        return current.get();
    }

    /** Marks a change; returns the new version. */
    public RouteData.DataVersion next() {
        return current.updateAndGet(v -> new RouteData.DataVersion(System.currentTimeMillis(), v.counter() + 1));
    }

    /** Adopts a loaded version (on start). */
    public void set(RouteData.DataVersion version) {
        current.set(version);
    }
}
