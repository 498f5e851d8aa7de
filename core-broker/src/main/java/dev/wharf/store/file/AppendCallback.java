package dev.wharf.store.file;

import java.nio.ByteBuffer;

/**
 * Writes one entry into a mapped file on behalf of its single writer.
 */
@FunctionalInterface
public interface AppendCallback {

    /**
     * Writes at {@code target.position()} (the file's write position); {@code target.limit()} is the end of
     * the file, so {@code target.remaining()} is the room left. The callback must not keep the buffer.
     *
     * @param fileFromOffset global offset of the file's first byte, so the callback knows the global write
     *                       offset ({@code fileFromOffset + target.position()})
     * @return how many bytes the write position advances (may exceed what was written, e.g. a blank record
     *         that claims the rest of the file); 0 when nothing was written
     */
    int doAppend(long fileFromOffset, ByteBuffer target);
}
