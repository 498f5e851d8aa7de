package dev.wharf.common.util;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replacing a file so that a crash leaves either the old content or the new, never a mix: write a temporary file
 * beside it, force it to disk, rename it over the file, and force the directory so that the rename is durable. The
 * steps are offered apart too, for writers that keep a backup between them. Stateless.
 */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    /** Replaces {@code file} with {@code bytes} (through {@code <file>.tmp}), creating its folder if needed. */
    public static void write(Path file, byte[] bytes) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        writeAndForce(tmp, bytes);
        replace(tmp, file);
        if (dir != null) {
            forceDirectory(dir);
        }
    }

    /** Writes the whole content, truncating what was there, and forces it to disk. */
    public static void writeAndForce(Path file, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }

    /** Forces a file written by other means to disk. */
    public static void force(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    /** Renames {@code from} over {@code to}: atomically where the file system can, else as a plain replace. */
    public static void replace(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Makes a creation, rename or removal in a folder durable (the directory entry lives in the folder). Best effort:
     * not every platform can open a folder; the rename itself is done either way.
     */
    public static void forceDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // see above: nothing more can be done from Java
        }
    }
}
