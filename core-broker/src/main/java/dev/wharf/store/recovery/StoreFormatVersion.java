package dev.wharf.store.recovery;

import dev.wharf.common.util.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code format} file: which version of the on-disk layout (commit-log record, consume-queue unit, index
 * file, checkpoint, config files) a store was written in. A release reads every format up to its own
 * {@link #CURRENT} and refuses a newer one, so an older Wharf started on a store an upgrade already wrote to
 * stops before it misreads anything.
 *
 * <p>Layout: UTF-8 text, one comment line then {@code version=N}:
 * <pre>
 * # Wharf store on-disk format; written when the store was created, do not edit
 * version=1
 * </pre>
 *
 * <p>Versions: 1 is the format of Wharf 0.1. A store without the file was created by Wharf 0.1, before the file
 * existed; its layout is format 1, so it is opened as it is and the file is added. Not thread-safe (start-up).
 */
public final class StoreFormatVersion {

    public static final String FILE_NAME = "format";
    /** The format this release writes and the newest it reads. */
    public static final int CURRENT = 1;

    private static final String KEY = "version=";

    private StoreFormatVersion() {
    }

    /**
     * Checks the store's format and records it when the file is missing (a new store, or one of Wharf 0.1).
     *
     * @return the store's format version
     * @throws IOException when the store is of a newer format or the file is damaged, with what to do
     */
    public static int checkOrCreate(Path rootDir) throws IOException {
        Path file = rootDir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            write(file, CURRENT);
            return CURRENT;
        }
        int version = read(file);
        if (version > CURRENT) {
            throw new IOException("The store at " + rootDir + " has on-disk format version " + version
                    + ", newer than the newest this Wharf reads (" + CURRENT + "): it was written by a newer release. "
                    + "Run that release (or a later one) on this store, or give this broker another storePathRootDir.");
        }
        return version;
    }

    /** The version written in the file. */
    public static int read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (String line : lines) {
            String text = line.trim();
            if (text.startsWith(KEY)) {
                try {
                    int version = Integer.parseInt(text.substring(KEY.length()).trim());
                    if (version >= 1) {
                        return version;
                    }
                } catch (NumberFormatException e) {
                    // reported below with the file's name
                }
            }
        }
        throw new IOException("The store format file " + file + " is damaged: it must hold a line version=N with N >= 1"
                + " (found " + lines.size() + " line(s)). If this store was written by Wharf " + CURRENT
                + "'s format, write version=" + CURRENT + " into it; otherwise restore it from a backup.");
    }

    /** Writes the file atomically (temp file, force, rename), so a crash leaves the old file or the new one. */
    static void write(Path file, int version) throws IOException {
        byte[] content = ("# Wharf store on-disk format; written when the store was created, do not edit\n"
                + KEY + version + "\n").getBytes(StandardCharsets.UTF_8);
        AtomicFiles.write(file, content);
    }
}
