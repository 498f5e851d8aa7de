package dev.wharf.store.config;

import dev.wharf.common.util.AtomicFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small text file (topics, consumer offsets, delay offsets, ...) replaced atomically: the new content goes
 * to {@code name.tmp}, is forced, and is renamed over {@code name}; the previous content is first kept as
 * {@code name.bak}. A reader therefore always finds either the old or the new content, never a mix, and a
 * file that turns out unreadable or rejected by the caller's check falls back to the backup.
 *
 * <p>Thread-safe: {@link #persist(String)} and {@link #load()} are synchronized per instance (one instance
 * per file).
 */
public final class ConfigFile {

    private static final Logger log = LoggerFactory.getLogger(ConfigFile.class);

    private final Path path;
    private final Path tmp;
    private final Path bak;

    public ConfigFile(Path path) {
        this.path = path;
        this.tmp = path.resolveSibling(path.getFileName() + ".tmp");
        this.bak = path.resolveSibling(path.getFileName() + ".bak");
    }

    public Path path() {
        return path;
    }

    public Path backupPath() {
        return bak;
    }

    /**
     * The content of the file, or of the backup when the file is missing, empty or not valid UTF-8; null when
     * neither exists.
     */
    public synchronized String load() throws IOException {
        return load(content -> true);
    }

    /**
     * Like {@link #load()}, but also falls back to the backup when {@code isValid} rejects the file's content
     * (e.g. it does not parse as JSON).
     *
     * @throws IOException when the file exists but neither it nor the backup is usable
     */
    public synchronized String load(Predicate<String> isValid) throws IOException {
        String main = readIfUsable(path, isValid);
        if (main != null) {
            return main;
        }
        boolean mainExists = Files.exists(path);
        String backup = readIfUsable(bak, isValid);
        if (backup != null) {
            if (mainExists) {
                log.warn("{} is corrupt; using its backup {}", path, bak);
            } else {
                log.warn("{} is missing; using its backup {}", path, bak);
            }
            return backup;
        }
        if (mainExists || Files.exists(bak)) {
            throw new IOException("Neither " + path + " nor its backup " + bak
                    + " holds usable content; fix or remove them (removing loses this configuration).");
        }
        return null;
    }

    private static String readIfUsable(Path file, Predicate<String> isValid) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            log.warn("Could not read {}: {}", file, e.toString());
            return null;
        }
        if (bytes.length == 0) {
            return null;
        }
        String content;
        try {
            content = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        if (content.isBlank()) {
            return null;
        }
        try {
            return isValid.test(content) ? content : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Replaces the file's content atomically, keeping the previous content as the backup. */
    public synchronized void persist(String content) throws IOException {
        if (content == null) {
            throw new IllegalArgumentException("config content must not be null (use an empty document instead)");
        }
        Path dir = path.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        AtomicFiles.writeAndForce(tmp, content.getBytes(StandardCharsets.UTF_8));
        if (Files.exists(path)) {
            Path bakTmp = bak.resolveSibling(bak.getFileName() + ".tmp");
            Files.copy(path, bakTmp, StandardCopyOption.REPLACE_EXISTING);
            AtomicFiles.force(bakTmp);
            AtomicFiles.replace(bakTmp, bak);
        }
        AtomicFiles.replace(tmp, path);
        if (dir != null) {
            AtomicFiles.forceDirectory(dir);
        }
    }
}
