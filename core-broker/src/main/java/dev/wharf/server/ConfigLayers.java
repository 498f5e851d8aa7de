package dev.wharf.server;

import dev.wharf.common.config.ConfigFileReader;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings of a server command in three layers, each overriding the one before: the command line's defaults,
 * the configuration file of {@code --config} (RocketMQ's key names, properties syntax, a key given twice is an
 * error), then the flags given. {@link #source()} names where the keys came from, for the message of an unknown
 * key or a bad value.
 *
 * @param merged the keys and values of all layers
 * @param source "the command line flags", or "the KIND FILE or the command line flags"
 */
record ConfigLayers(Map<String, String> merged, String source) {

    /**
     * @param kind     what the file is, e.g. "broker configuration file"
     * @param file     the {@code --config} file, or null
     * @param defaults values used when neither the file nor a flag sets them
     * @param flags    the keys the flags given set
     */
    static ConfigLayers of(String kind, Path file, Map<String, String> defaults, Map<String, String> flags)
            throws IOException {
        Map<String, String> merged = new LinkedHashMap<>(defaults);
        if (file != null) {
            merged.putAll(read(kind, file));
        }
        merged.putAll(flags);
        return new ConfigLayers(merged, file == null ? "the command line flags"
                : "the " + kind + " " + file + " or the command line flags");
    }

    /**
     * The file's keys and values, the values trimmed.
     *
     * @throws NoSuchFileException      the file does not exist (the message says to give one with --config)
     * @throws IllegalArgumentException a key appears twice (the message names both lines)
     */
    static Map<String, String> read(String kind, Path file) throws IOException {
        Map<String, String> settings;
        try {
            settings = ConfigFileReader.read(file, "the " + kind);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "The " + kind + " " + file
                    + " does not exist; give the path of a key=value file (--config FILE).");
        }
        Map<String, String> out = new LinkedHashMap<>();
        settings.forEach((key, value) -> out.put(key, value.trim()));
        return out;
    }
}
