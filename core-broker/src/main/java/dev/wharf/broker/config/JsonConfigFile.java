package dev.wharf.broker.config;

import dev.wharf.store.config.ConfigFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * One broker state file (topics, consumer offsets, subscription groups) as pretty-printed JSON, written
 * through the store's atomic {@link ConfigFile} (temp file, fsync, rename, previous content kept as
 * {@code .bak}). A file that does not parse falls back to its backup.
 *
 * @param <T> the document type, a record or bean Jackson can map
 */
public final class JsonConfigFile<T> {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private final ConfigFile file;
    private final Class<T> type;

    public JsonConfigFile(Path path, Class<T> type) {
        this.file = new ConfigFile(path);
        this.type = type;
    }

    /** The file in the standard place: {@code {storeRoot}/config/{name}}. */
    public static <T> JsonConfigFile<T> inConfigDir(Path storeRoot, String name, Class<T> type) {
        return new JsonConfigFile<>(storeRoot.resolve("config").resolve(name), type);
    }

    public Path path() {
        return file.path();
    }

    /**
     * The document, or null when neither the file nor its backup exists.
     *
     * @throws IOException when the file exists but neither it nor its backup holds a valid document
     */
    public T load() throws IOException {
        String content = file.load(this::parses);
        if (content == null) {
            return null;
        }
        try {
            return MAPPER.readValue(content, type);
        } catch (JacksonException e) {
            throw new IOException(file.path() + " is not a valid " + type.getSimpleName() + ": "
                    + e.getOriginalMessage(), e);
        }
    }

    /** Replaces the file atomically. */
    public void persist(T document) throws IOException {
        String json;
        try {
            json = MAPPER.writeValueAsString(document);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot encode " + type.getSimpleName() + " as JSON", e);
        }
        file.persist(json);
    }

    /** Like {@link #persist} for callers that cannot handle a checked exception here. */
    public void persistUnchecked(T document) {
        try {
            persist(document);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file.path() + ": " + e.getMessage(), e);
        }
    }

    private boolean parses(String content) {
        try {
            MAPPER.readValue(content, type);
            return true;
        } catch (JacksonException e) {
            return false;
        }
    }
}
