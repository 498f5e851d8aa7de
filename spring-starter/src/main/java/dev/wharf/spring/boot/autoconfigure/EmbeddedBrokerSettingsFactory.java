package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.embedded.InApplicationSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The settings of the embedded broker: small defaults fit for a broker inside an application, then
 * {@code wharf.embedded.flush-disk-type}, then the {@code wharf.embedded.broker.*} settings (RocketMQ's names, bound
 * onto the broker's configuration beans, an unknown name refused with the closest known one), then the store folder
 * and loopback ports.
 */
final class EmbeddedBrokerSettingsFactory {

    static final String BROKER_PREFIX = "wharf.embedded.broker";

    /** Settings the starter owns: where they are set instead. */
    private static final Map<String, String> OWNED = Map.of(
            "storePathRootDir", "wharf.embedded.store-dir",
            "namesrvAddr", "nothing: the embedded broker registers with its own NameServer (wharf.embedded.port)",
            "flushDiskType", "wharf.embedded.flush-disk-type");

    private EmbeddedBrokerSettingsFactory() {
    }

    /**
     * @throws InvalidConfigurationPropertyValueException naming the property when a setting is unknown, of the wrong
     *                                                    form or out of range
     */
    static BrokerSettings create(WharfProperties.Embedded embedded, Path storeDir) {
        BrokerSettings s = InApplicationSettings.defaults("wharf-embedded");
        s.netty().setListenPort(0);
        // loopback unless the application opens the broker up (bindAddress, brokerIP1)
        s.netty().setBindAddress("127.0.0.1");
        s.broker().setBrokerIP1("127.0.0.1");
        s.store().setFlushDiskType(embedded.getFlushDiskType());

        Map<String, String> settings = SettingKeys.canonical(embedded.getBroker(),
                InApplicationSettings.settingTypes().toArray(Class<?>[]::new));
        for (String key : settings.keySet()) {
            String instead = OWNED.get(key);
            if (instead != null) {
                throw new InvalidConfigurationPropertyValueException(BROKER_PREFIX + "." + key, settings.get(key),
                        "The starter sets " + key + " itself; use " + instead + ".");
            }
        }
        List<String> unknown;
        try {
            unknown = InApplicationSettings.bind(s, settings);
        } catch (IllegalArgumentException e) {
            throw invalid(settings, e.getMessage());
        }
        if (!unknown.isEmpty()) {
            throw new InvalidConfigurationPropertyValueException(BROKER_PREFIX + "." + unknown.get(0),
                    settings.get(unknown.get(0)), InApplicationSettings.describeUnknown(s, unknown, BROKER_PREFIX));
        }
        s.store().setStorePathRootDir(storeDir.toString());
        try {
            s.validate();
        } catch (IllegalArgumentException e) {
            throw invalid(settings, e.getMessage());
        }
        return s;
    }

    /** The failure of a value: names the first setting the message mentions, else the whole map. */
    private static InvalidConfigurationPropertyValueException invalid(Map<String, String> settings, String reason) {
        for (Map.Entry<String, String> e : settings.entrySet()) {
            if (reason != null && reason.contains(e.getKey())) {
                return new InvalidConfigurationPropertyValueException(BROKER_PREFIX + "." + e.getKey(), e.getValue(),
                        reason);
            }
        }
        return new InvalidConfigurationPropertyValueException(BROKER_PREFIX, settings, reason);
    }
}
