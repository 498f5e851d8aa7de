package dev.wharf.jms.vm;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.embedded.EmbeddedServer;
import dev.wharf.embedded.EmbeddedServerException;
import dev.wharf.embedded.InApplicationSettings;
import dev.wharf.jms.config.ConnectionOptions;
import dev.wharf.jms.config.WharfConnectionConfig;
import dev.wharf.jms.error.JmsErrors;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-JVM brokers of {@code vm://name} URLs, one per name. The first connection to a name starts its broker
 * with the URL's broker settings; later connections share it. A later URL with broker settings different from the
 * running broker's is refused rather than silently ignored; a URL without broker settings joins whatever runs
 * under the name. Brokers run until {@link #stop(String)}, {@link #stopAll()} or the JVM's exit (so that a
 * connection pool closing its last connection does not restart the broker for the next one). A broker without
 * {@code storePathRootDir} stores in a fresh temporary folder, deleted when it stops.
 *
 * <p>What a broker is comes from the {@link Launcher}; {@link #shared()} uses the launcher of the embedded
 * NameServer and broker. Thread-safe; starting and stopping are serialized, which is fine for operations this
 * rare.
 */
public final class VmBrokerRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(VmBrokerRegistry.class);

    /** What the registry needs to know of a started broker. */
    public interface VmBroker {

        /** The NameServer address clients of this broker use ({@code host:port}). */
        String namesrvAddr();

        /** Stops the broker and its NameServer; must not throw. */
        void shutdown();
    }

    /** Starts the NameServer and broker of a spec. */
    @FunctionalInterface
    public interface Launcher {
        VmBroker start(VmBrokerSpec spec) throws JMSException;
    }

    /**
     * What to start: the name, the URL's broker settings and the store folder. A launcher binds {@code settings}
     * onto the broker's configuration beans with {@code BeanBinder.bind}, reports unknown keys with
     * {@link WharfConnectionConfig#describeUnknownBrokerSettings} (as an exception, so nothing starts), and then
     * sets {@code storePathRootDir}, which is the URL's folder or a fresh temporary one.
     */
    public record VmBrokerSpec(String name, Map<String, String> settings, Path storePathRootDir,
                               boolean temporaryStore) {
        public VmBrokerSpec {
            Objects.requireNonNull(name, "name");
            settings = Map.copyOf(settings);
            Objects.requireNonNull(storePathRootDir, "storePathRootDir");
        }
    }

    private static final VmBrokerRegistry SHARED = new VmBrokerRegistry(VmBrokerRegistry::launchEmbedded, true);

    private final Launcher launcher;
    private final boolean shutdownHook;
    private final Map<String, Running> running = new LinkedHashMap<>();
    private boolean hookRegistered;

    private record Running(VmBrokerSpec spec, Map<String, String> requested, VmBroker broker) {
    }

    /**
     * @param launcher     starts brokers
     * @param shutdownHook whether to stop all brokers when the JVM exits
     */
    public VmBrokerRegistry(Launcher launcher, boolean shutdownHook) {
        this.launcher = Objects.requireNonNull(launcher, "launcher");
        this.shutdownHook = shutdownHook;
    }

    /** The registry every vm:// connection of this JVM uses. */
    public static VmBrokerRegistry shared() {
        return SHARED;
    }

    /**
     * The broker of a vm:// configuration, started if it does not run yet.
     *
     * @throws IllegalStateException when the broker runs with other broker settings than the URL asks for
     * @throws JMSException          when the broker cannot be started
     */
    public synchronized VmBroker acquire(WharfConnectionConfig config) throws JMSException {
        if (!config.isVm()) {
            throw new IllegalStateException("The URL " + config.url() + " is not a vm:// URL; only vm:// URLs"
                    + " start a broker in this JVM.");
        }
        String name = config.vmBrokerName();
        Map<String, String> requested = config.brokerSettings();
        Running r = running.get(name);
        if (r != null) {
            if (!requested.isEmpty() && !requested.equals(r.requested())) {
                throw new IllegalStateException("The broker vm://" + name + " already runs with the settings "
                        + r.requested() + ", but " + config.url() + " asks for " + requested
                        + "; use the same settings, leave them out, or choose another name.");
            }
            return r.broker();
        }
        VmBrokerSpec spec = spec(name, requested);
        VmBroker broker;
        try {
            broker = launcher.start(spec);
        } catch (JMSException | RuntimeException e) {
            deleteTemporaryStore(spec);
            throw e instanceof JMSException j ? j : JmsErrors.jms("Could not start the broker vm://" + name + ": "
                    + e.getMessage(), e);
        }
        running.put(name, new Running(spec, requested, broker));
        registerHook();
        LOG.info("Started in-JVM broker vm://{} storing in {}", name, spec.storePathRootDir());
        return broker;
    }

    private static VmBrokerSpec spec(String name, Map<String, String> requested) throws JMSException {
        String dir = requested.get(WharfConnectionConfig.STORE_PATH_ROOT_DIR);
        if (dir != null && !dir.isBlank()) {
            return new VmBrokerSpec(name, requested, Path.of(dir), false);
        }
        try {
            Path temp = Files.createTempDirectory("wharf-vm-" + name + "-");
            return new VmBrokerSpec(name, requested, temp, true);
        } catch (IOException e) {
            throw JmsErrors.jms("Could not create a temporary store folder for vm://" + name + " (" + e.getMessage()
                    + "); set storePathRootDir in the URL to a writable folder.", e);
        }
    }

    private void registerHook() {
        if (shutdownHook && !hookRegistered) {
            Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "wharf-vm-broker-shutdown"));
            hookRegistered = true;
        }
    }

    /**
     * Stops the broker of a name.
     *
     * @return whether a broker of that name was running
     */
    public synchronized boolean stop(String name) {
        Running r = running.remove(name);
        if (r == null) {
            return false;
        }
        try {
            r.broker().shutdown();
        } finally {
            deleteTemporaryStore(r.spec());
            LOG.info("Stopped in-JVM broker vm://{}", name);
        }
        return true;
    }

    /** Stops every broker of this registry. */
    public synchronized void stopAll() {
        for (String name : Set.copyOf(running.keySet())) {
            stop(name);
        }
    }

    /** The names of the running brokers, sorted. */
    public synchronized Set<String> names() {
        return new TreeSet<>(running.keySet());
    }

    private static void deleteTemporaryStore(VmBrokerSpec spec) {
        if (!spec.temporaryStore()) {
            return;
        }
        try (Stream<Path> files = Files.walk(spec.storePathRootDir())) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.warn("Could not delete {} of the temporary store of vm://{}: {}", p, spec.name(),
                            e.getMessage());
                }
            });
        } catch (IOException e) {
            LOG.warn("Could not delete the temporary store {} of vm://{}: {}", spec.storePathRootDir(), spec.name(),
                    e.getMessage());
        }
    }

    /**
     * Starts a NameServer and a broker of the spec on 127.0.0.1, both on free ports: first the in-JVM defaults
     * (small store files and thread pools), then the URL's settings bound onto the broker's configuration beans,
     * then the store folder and the NameServer address. An unknown setting is refused with a hint before anything
     * starts.
     */
    private static VmBroker launchEmbedded(VmBrokerSpec spec) throws JMSException {
        return EmbeddedBroker.start(spec);
    }

    /** The NameServer and broker of one vm:// name. */
    private static final class EmbeddedBroker implements VmBroker {

        private final EmbeddedServer server;

        private EmbeddedBroker(EmbeddedServer server) {
            this.server = server;
        }

        static EmbeddedBroker start(VmBrokerSpec spec) throws JMSException {
            BrokerSettings settings = settings(spec);
            try {
                return new EmbeddedBroker(EmbeddedServer.start(settings, 0));
            } catch (EmbeddedServerException e) {
                throw JmsErrors.jms("Could not start the broker vm://" + spec.name() + ": " + e.getMessage()
                        + "; check the folder and the broker settings of the URL.", e);
            }
        }

        private static BrokerSettings settings(VmBrokerSpec spec) throws JMSException {
            BrokerSettings s = InApplicationSettings.defaults("vm-" + spec.name());
            Map<String, String> requested = new LinkedHashMap<>(spec.settings());
            requested.remove(WharfConnectionConfig.STORE_PATH_ROOT_DIR);
            List<String> unknown;
            try {
                unknown = InApplicationSettings.bind(s, requested);
            } catch (IllegalArgumentException e) {
                throw JmsErrors.jms("The broker settings of vm://" + spec.name() + " are invalid: " + e.getMessage(),
                        e);
            }
            if (!unknown.isEmpty()) {
                throw new JMSException(InApplicationSettings.describeUnknown(s, unknown, "the broker settings of vm://"
                        + spec.name(), new ConnectionOptions()));
            }
            // The in-JVM broker always listens on loopback: its NameServer is only given to this JVM's clients.
            if (!requested.containsKey("listenPort")) {
                s.netty().setListenPort(0);
            }
            s.store().setStorePathRootDir(spec.storePathRootDir().toString());
            try {
                s.validate();
            } catch (IllegalArgumentException e) {
                throw JmsErrors.jms("The broker settings of vm://" + spec.name() + " are invalid: " + e.getMessage(),
                        e);
            }
            return s;
        }

        @Override
        public String namesrvAddr() {
            return server.namesrvAddr();
        }

        @Override
        public void shutdown() {
            server.close();
        }
    }
}
