package dev.wharf.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads a file through a read-only mapping that is unmapped as soon as the reading is done, rather than when the
 * garbage collector gets to it: a file still mapped cannot be deleted on some platforms and holds address space.
 * Mapping stays in this package (the ArchUnit rules keep {@link MappedByteBuffer} here).
 */
public final class ReadOnlyMapping {

    /** What to read of the mapped bytes; must not keep the buffer beyond the call. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(ByteBuffer data);
    }

    private ReadOnlyMapping() {
    }

    /** Maps the first {@code size} bytes of a file, hands them to the reader, and unmaps them. */
    public static <T> T read(Path file, long size, Reader<T> reader) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            MappedByteBuffer data = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
            try {
                return reader.read(data);
            } finally {
                Unmapper.unmap(data);
            }
        }
    }
}
