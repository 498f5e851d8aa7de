package dev.wharf.jms.it;

import dev.wharf.jms.vm.VmBrokerRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Fresh vm:// broker names for one test class, all stopped by {@link #stopAll()}. */
public final class VmNames {

    private static final AtomicInteger COUNTER = new AtomicInteger();
    private final String prefix;
    private final List<String> names = new ArrayList<>();

    public VmNames(String prefix) {
        this.prefix = prefix;
    }

    /** {@code vm://prefix-n} plus {@code query} (which starts with '?' or is empty). */
    public synchronized String url(String query) {
        String name = prefix + "-" + COUNTER.incrementAndGet();
        names.add(name);
        return "vm://" + name + query;
    }

    public String url() {
        return url("");
    }

    public synchronized void stopAll() {
        names.forEach(VmBrokerRegistry.shared()::stop);
        names.clear();
    }
}
