package dev.wharf.store.recovery;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The {@code abort} marker: created when the store starts, deleted at the end of a clean shutdown. Finding it
 * at start-up means the last run did not shut down cleanly, so recovery must validate the commit log tail.
 *
 * <p>Not thread-safe (start-up and shutdown only).
 */
public final class AbortFile {

    public static final String FILE_NAME = "abort";

    private final Path path;

    public AbortFile(Path rootDir) {
        this.path = rootDir.resolve(FILE_NAME);
    }

    /** Whether the marker is there, i.e. the last run ended without a clean shutdown. */
    public boolean exists() {
        return Files.exists(path);
    }

    /** Creates the marker and syncs it, so a crash from now on is detected. */
    public void create() throws IOException {
        if (!Files.exists(path)) {
            Files.createFile(path);
        }
        syncDirectory(path.toAbsolutePath().getParent());
    }

    /** Removes the marker after a clean shutdown. */
    public void delete() throws IOException {
        if (Files.deleteIfExists(path)) {
            syncDirectory(path.toAbsolutePath().getParent());
        }
    }

    /** Makes a file's creation or removal durable (the directory entry lives in the directory). */
    static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some platforms cannot open directories; the rename/create itself already happened
        }
    }

    public Path path() {
        return path;
    }
}
