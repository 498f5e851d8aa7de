package dev.wharf.store.file;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A view of bytes inside a mapped file, handed out without copying. The view holds a reference on its file
 * so the file is not unmapped while the view is in use; call {@link #release()} exactly when done (further
 * calls are ignored). Reading the buffer after release is a bug: the memory may be unmapped.
 *
 * <p>The buffer is the caller's own slice (position 0, limit {@link #size()}); it may move its position.
 * Not thread-safe except {@link #release()}, which any thread may call (once counts).
 */
public final class SelectMappedBufferResult {

    private static final AtomicIntegerFieldUpdater<SelectMappedBufferResult> RELEASED =
            AtomicIntegerFieldUpdater.newUpdater(SelectMappedBufferResult.class, "released");

    private final long startOffset;
    private final ByteBuffer byteBuffer;
    private int size;
    private final MappedFile mappedFile;
    private volatile int released;

    SelectMappedBufferResult(long startOffset, ByteBuffer byteBuffer, int size, MappedFile mappedFile) {
        this.startOffset = startOffset;
        this.byteBuffer = byteBuffer;
        this.size = size;
        this.mappedFile = mappedFile;
    }

    /** Global offset (commit-log or queue-file offset) of the first byte. */
    public long startOffset() {
        return startOffset;
    }

    public ByteBuffer byteBuffer() {
        return byteBuffer;
    }

    public int size() {
        return size;
    }

    /** Shortens the view (e.g. to whole units); never lengthens it. */
    public void shrinkTo(int newSize) {
        if (newSize < 0 || newSize > size) {
            throw new IllegalArgumentException("cannot resize a view of " + size + " bytes to " + newSize);
        }
        size = newSize;
        byteBuffer.limit(newSize);
    }

    /** The file the bytes live in (for callers that transfer straight from its channel). */
    public MappedFile mappedFile() {
        return mappedFile;
    }

    public void release() {
        if (RELEASED.compareAndSet(this, 0, 1)) {
            mappedFile.release();
        }
    }

    public boolean isReleased() {
        return released != 0;
    }

    @Override
    public String toString() {
        return "SelectMappedBufferResult{startOffset=" + startOffset + ", size=" + size + ", file="
                + mappedFile.getFileName() + "}";
    }
}
