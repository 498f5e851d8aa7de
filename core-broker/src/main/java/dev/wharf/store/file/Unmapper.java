package dev.wharf.store.file;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.MappedByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases a mapping at once instead of waiting for the garbage collector, so deleted files free their disk
 * space and address space promptly. Uses {@code sun.misc.Unsafe#invokeCleaner} (module jdk.unsupported),
 * the only supported-in-practice way on Java 17; when it is unavailable the mapping is left to the GC.
 */
final class Unmapper {

    private static final Logger log = LoggerFactory.getLogger(Unmapper.class);
    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;

    static {
        Object unsafe = null;
        Method invokeCleaner = null;
        try {
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            unsafe = field.get(null);
            invokeCleaner = type.getMethod("invokeCleaner", java.nio.ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("Mapped files cannot be unmapped eagerly ({}); their memory is freed by the GC", e.toString());
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = invokeCleaner;
    }

    private Unmapper() {
    }

    static void unmap(MappedByteBuffer buffer) {
        if (INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, buffer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("Could not unmap a store file: {}", e.toString());
        }
    }
}
