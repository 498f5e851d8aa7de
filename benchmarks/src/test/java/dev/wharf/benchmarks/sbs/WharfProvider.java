package dev.wharf.benchmarks.sbs;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.vm.VmBrokerRegistry;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;

/**
 * An in-JVM Wharf broker of a {@code vm://} URL. {@code wharf-sync} is SYNC_FLUSH and {@code wharf-async}
 * ASYNC_FLUSH, both with {@code forceDeliveryCounts=false} (Artemis does not force delivery counts before delivery
 * either); {@code wharf-sync-counts} is SYNC_FLUSH with delivery counts forced; {@code wharf:vm://NAME?SETTINGS}
 * takes any URL of one's own.
 */
final class WharfProvider implements Provider {

    private final String name;
    private final String url;
    private final String vmName;

    private WharfProvider(String name, String url) {
        if (!url.startsWith("vm://")) {
            throw new IllegalArgumentException("The provider " + name + " needs a vm:// URL (the comparison starts"
                    + " and stops its broker each round), not " + url);
        }
        this.name = name;
        this.url = url;
        this.vmName = url.substring("vm://".length()).split("\\?", 2)[0];
    }

    /** The Wharf configuration of a provider name, or null when the name is not one of them. */
    static Provider named(String name) {
        return switch (name) {
            case "wharf-sync" -> new WharfProvider(name, "vm://sbs-sync?flushDiskType=SYNC_FLUSH&forceDeliveryCounts=false");
            case "wharf-async" -> new WharfProvider(name, "vm://sbs-async?flushDiskType=ASYNC_FLUSH&forceDeliveryCounts=false");
            case "wharf-sync-counts" -> new WharfProvider(name, "vm://sbs-counts?flushDiskType=SYNC_FLUSH&forceDeliveryCounts=true");
            default -> name.startsWith("wharf:") ? new WharfProvider(name, name.substring("wharf:".length())) : null;
        };
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ConnectionFactory start(Path dir) throws Exception {
        WharfConnectionFactory factory = new WharfConnectionFactory(url + (url.contains("?") ? "&" : "?")
                + "storePathRootDir=" + dir);
        // a vm:// broker starts with its first connection: start it here, before anything is timed
        try (Connection first = factory.createConnection()) {
            first.start();
        }
        return factory;
    }

    @Override
    public void stop() {
        VmBrokerRegistry.shared().stop(vmName);
    }
}
