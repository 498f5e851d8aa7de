package dev.wharf.broker.config;

import dev.wharf.broker.ha.ControllerModeConfig;
import dev.wharf.broker.ha.HaConfig;
import dev.wharf.common.config.BeanBinder;
import dev.wharf.common.config.ConfigFileReader;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.store.MessageStoreConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The configuration beans a broker is made of (one per subsystem: broker, store, network, replication), and the
 * loader that fills them from one {@code key=value} file (RocketMQ's {@code broker.conf} format: {@code #} comments,
 * {@code \} escapes; a key given twice is an error naming both lines).
 * Each key goes to the bean that has a setter of that name; a key none has is an error naming the key, the
 * closest known key and the file.
 */
public record BrokerSettings(BrokerConfig broker, MessageStoreConfig store, NettyServerConfig netty, HaConfig ha,
                             ControllerModeConfig controller) {

    public BrokerSettings {
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(netty, "netty");
        Objects.requireNonNull(ha, "ha");
        Objects.requireNonNull(controller, "controller");
    }

    /** A broker outside controller mode (controller settings at their defaults). */
    public BrokerSettings(BrokerConfig broker, MessageStoreConfig store, NettyServerConfig netty, HaConfig ha) {
        this(broker, store, netty, ha, new ControllerModeConfig());
    }

    /** A broker that is not replicated (replication settings at their defaults). */
    public BrokerSettings(BrokerConfig broker, MessageStoreConfig store, NettyServerConfig netty) {
        this(broker, store, netty, new HaConfig());
    }

    /** Defaults everywhere. */
    public static BrokerSettings defaults() {
        return new BrokerSettings(new BrokerConfig(), new MessageStoreConfig(), new NettyServerConfig(),
                new HaConfig(), new ControllerModeConfig());
    }

    /**
     * Reads a properties file onto fresh beans and validates them.
     *
     * @throws IOException              the file cannot be read (the message names it)
     * @throws IllegalArgumentException an unknown key, a key given twice, a value of the wrong form or an invalid
     *                                  setting; the message names the key and the file
     */
    public static BrokerSettings load(Path file) throws IOException {
        return from(ConfigFileReader.read(file, "the broker configuration file"), file.toString());
    }

    /**
     * Binds settings (from a file, command line flags, a map in a test) onto fresh beans and validates them.
     *
     * @param source where the settings came from, named in errors
     */
    public static BrokerSettings from(Map<String, String> settings, String source) {
        BrokerSettings out = defaults();
        try {
            BeanBinder.bindStrict(settings, source, out.broker, out.store, out.netty, out.ha,
                    out.controller);
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

    /**
     * Validates the broker, store, replication and controller-mode beans (the network bean validates in its
     * setters). In controller mode brokerId is the replica's id at the controller, not its role, so replication is
     * validated as for the role an elected replica takes.
     */
    public void validate() {
        broker.validate();
        store.validate();
        if (controller.isEnableControllerMode()) {
            if (!ha.getBrokerRole().isMaster()) {
                controller.validate(ha.getBrokerRole()); // says what brokerRole means in controller mode
            }
            ha.validate(0);
            controller.validate(ha.getBrokerRole());
        } else {
            ha.validate(broker.getBrokerId());
        }
    }
}
