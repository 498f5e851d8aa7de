package dev.wharf.server;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.embedded.EmbeddedServer;
import dev.wharf.store.FlushDiskType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Broker flags shared by {@code broker} and {@code standalone}. Each flag is a shortcut for one key of the
 * configuration file (RocketMQ's names); a flag overrides the file, the file overrides Wharf's defaults.
 */
final class BrokerOptions {

    /** How puts reach the disk. */
    enum Flush {
        SYNC(FlushDiskType.SYNC_FLUSH), ASYNC(FlushDiskType.ASYNC_FLUSH);

        final FlushDiskType type;

        Flush(FlushDiskType type) {
            this.type = type;
        }
    }

    @Option(names = "--config", paramLabel = "FILE",
            description = "Broker configuration file (key=value lines with RocketMQ's key names, e.g. brokerName, "
                    + "listenPort, storePathRootDir, flushDiskType); the flags below override its values.")
    Path config;

    @Option(names = "--store", paramLabel = "DIR",
            description = "Store folder (storePathRootDir). Default: ${sys:user.home}/wharf/store")
    Path store;

    @Option(names = "--name", paramLabel = "NAME", description = "Broker name (brokerName). Default: broker-a")
    String name;

    @Option(names = "--flush", paramLabel = "sync|async",
            description = "sync: a send returns once the message is on disk (flushDiskType=SYNC_FLUSH); async "
                    + "(default): once it is in the page cache, flushed every 500 ms.")
    Flush flush;

    @Option(names = "--bind", paramLabel = "ADDRESS",
            description = "Address to listen on (bindAddress). Default: 127.0.0.1; 0.0.0.0 for every interface "
                    + "(then set brokerIP1 in the configuration file to the address clients should use).")
    String bind;

    /** The default store folder of the command line (the library's default is ~/store, RocketMQ's). */
    static Path defaultStore() {
        return Path.of(System.getProperty("user.home"), "wharf", "store");
    }

    /**
     * The broker's settings from three layers: the command line's defaults, the {@code --config} file, then these
     * flags and the command's own. They are bound and validated by {@link BrokerSettings#from}, so an unknown key
     * or a bad value is reported with the key's name and where it came from.
     *
     * @param commandFlags the keys the command's own flags set
     */
    BrokerSettings settings(Map<String, String> commandFlags) throws IOException {
        Map<String, String> flags = flags();
        flags.putAll(commandFlags);
        ConfigLayers layers = ConfigLayers.of("broker configuration file", config, defaults(), flags);
        return BrokerSettings.from(layers.merged(), layers.source());
    }

    /** Values used when neither the file nor a flag sets them. */
    private Map<String, String> defaults() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("storePathRootDir", defaultStore().toString());
        if (bind != null && !EmbeddedServer.isWildcard(bind)) {
            // clients must be told the address the broker listens on
            out.put("brokerIP1", bind.trim());
        }
        return out;
    }

    /** The keys the flags set. */
    private Map<String, String> flags() {
        Map<String, String> out = new LinkedHashMap<>();
        if (store != null) {
            out.put("storePathRootDir", store.toAbsolutePath().normalize().toString());
        }
        if (name != null) {
            out.put("brokerName", name);
        }
        if (flush != null) {
            out.put("flushDiskType", flush.type.name());
        }
        if (bind != null) {
            out.put("bindAddress", bind.trim());
        }
        return out;
    }
}
