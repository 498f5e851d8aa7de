package dev.wharf.server;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.common.config.ConfigFileReader;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the broker's settings from three layers: defaults of the command line, the configuration file, then the
 * flags. The merged keys are bound and validated by {@link BrokerSettings#from}, so an unknown key or a bad value
 * is reported with the key's name and where it came from.
 */
final class BrokerSettingsAssembler {

    private BrokerSettingsAssembler() {
    }

    static BrokerSettings assemble(Path configFile, Map<String, String> defaults, Map<String, String> flags)
            throws IOException {
        Map<String, String> merged = new LinkedHashMap<>(defaults);
        if (configFile != null) {
            merged.putAll(read(configFile));
        }
        merged.putAll(flags);
        String source = configFile == null ? "the command line flags"
                : "the configuration file " + configFile + " or the command line flags";
        return BrokerSettings.from(merged, source);
    }

    /**
     * The file's keys and values ({@code broker.conf} format: properties syntax, UTF-8).
     *
     * @throws IllegalArgumentException a key appears twice (the message names both lines)
     */
    static Map<String, String> read(Path file) throws IOException {
        Map<String, String> settings;
        try {
            settings = ConfigFileReader.read(file, "the broker configuration file");
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "The broker configuration file " + file
                    + " does not exist; give the path of a key=value file (--config FILE).");
        }
        Map<String, String> out = new LinkedHashMap<>();
        settings.forEach((key, value) -> out.put(key, value.trim()));
        return out;
    }
}
