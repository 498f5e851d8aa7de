package dev.wharf.store.file;

import java.nio.file.Path;

/**
 * A store file found shorter than the configured file size when the queue was loaded (cut by a failed copy,
 * a full disk or a crash while the file was created). It was extended to the full size with zeros, so the
 * bytes past {@code actualSize} hold nothing; recovery decides what of the rest is still good.
 *
 * @param path           the file
 * @param fileFromOffset global offset of its first byte
 * @param actualSize     its length on disk before it was extended
 * @param expectedSize   the configured file size
 */
public record ShortFile(Path path, long fileFromOffset, long actualSize, long expectedSize) {

    /** Global offset just past the bytes the file really had. */
    public long dataEnd() {
        return fileFromOffset + actualSize;
    }
}
