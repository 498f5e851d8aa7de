package dev.wharf.store.commitlog;

import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;

/**
 * Whole commit-log records read for replication: a zero-copy view of their bytes and the offset the next read
 * starts at. That is the view's end, except after a blank end-of-file record, which travels as its 8-byte
 * header but stands for the rest of its file: then it is the next file's start. Release it once sent.
 */
public record ReplicaSlice(SelectMappedBufferResult view, long offset, long nextOffset) {

    public ByteBuffer bytes() {
        return view.byteBuffer();
    }

    public int size() {
        return view.size();
    }

    public void release() {
        view.release();
    }
}
