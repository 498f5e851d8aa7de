package dev.wharf.broker.config;

import dev.wharf.broker.ha.HaConfig;
import dev.wharf.common.config.BeanBinder;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.store.MessageStoreConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * The configuration beans a broker is made of (one per subsystem: broker, store, network, replication), and the loader that fills them from one
 * {@code key=value} file (RocketMQ's {@code broker.conf} format: {@code #} comments, {@code \} escapes).
 * Each key goes to the bean that has a setter of that name; a key none has is an error naming the key, the
 * closest known key and the file.
 */
public record BrokerSettings(BrokerConfig broker, MessageStoreConfig store, NettyServerConfig netty, HaConfig ha) {

    public BrokerSettings {
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(netty, "netty");
        Objects.requireNonNull(ha, "ha");
    }

    /** A broker that is not replicated (replication settings at their defaults). */
    public BrokerSettings(BrokerConfig broker, MessageStoreConfig store, NettyServerConfig netty) {
        this(broker, store, netty, new HaConfig());
    }

    /** Defaults everywhere. */
    public static BrokerSettings defaults() {
        return new BrokerSettings(new BrokerConfig(), new MessageStoreConfig(), new NettyServerConfig(),
                new HaConfig());
    }

    /**
     * Reads a properties file onto fresh beans and validates them.
     *
     * @throws IOException              the file cannot be read (the message names it)
     * @throws IllegalArgumentException an unknown key, a value of the wrong form or an invalid setting; the
     *                                  message names the key and the file
     */
    public static BrokerSettings load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "the broker configuration file " + file
                    + " does not exist; give the path of an existing key=value file");
        } catch (CharacterCodingException e) {
            throw new IOException("The broker configuration file " + file + " is not UTF-8 text; save it as UTF-8.", e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (String key : properties.stringPropertyNames()) {
            settings.put(key, properties.getProperty(key));
        }
        return from(settings, file.toString());
    }

    /**
     * Binds settings (from a file, command line flags, a map in a test) onto fresh beans and validates them.
     *
     * @param source where the settings came from, named in errors
     */
    public static BrokerSettings from(Map<String, String> settings, String source) {
        BrokerSettings out = defaults();
        try {
            BeanBinder.bindStrict(settings, source, out.broker, out.store, out.netty, out.ha);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().contains(source)) {
                throw e;
            }
            throw new IllegalArgumentException(e.getMessage() + " (in " + source + ")", e);
        }
        try {
            out.validate();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (in " + source + ")", e);
        }
        return out;
    }

    /** Validates the broker, store and replication beans (the network bean validates in its setters). */
    public void validate() {
        broker.validate();
        store.validate();
        ha.validate(broker.getBrokerId());
    }
}
