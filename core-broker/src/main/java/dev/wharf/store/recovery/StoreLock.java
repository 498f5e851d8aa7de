package dev.wharf.store.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The {@code lock} file: an exclusive OS file lock held for as long as a store is open, so a second process
 * (or a second store in the same JVM) fails at once instead of corrupting the files. The file's content
 * names the holder (process id and host) for the error message; the lock itself is what counts.
 *
 * <p>Thread-safe.
 */
public final class StoreLock implements AutoCloseable {

    public static final String FILE_NAME = "lock";

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;

    private StoreLock(Path path, FileChannel channel, FileLock lock) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of the store under {@code rootDir}.
     *
     * @throws IOException when another process or store holds it, with a message saying so
     */
    public static StoreLock acquire(Path rootDir) throws IOException {
        Files.createDirectories(rootDir);
        Path path = rootDir.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            channel.close();
            throw new IOException("Could not lock the store at " + rootDir + ": " + e.getMessage(), e);
        }
        if (lock == null) {
            String holder = readHolder(channel);
            channel.close();
            throw new IOException("The store at " + rootDir + " is already in use" + (holder.isEmpty() ? "" : " by " + holder)
                    + " (its lock file is held). Stop the other broker or give this one another storePathRootDir.");
        }
        String me = "process " + ProcessHandle.current().pid() + " on " + hostName();
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(me.getBytes(StandardCharsets.UTF_8)), 0);
        channel.force(false);
        return new StoreLock(path, channel, lock);
    }

    private static String readHolder(FileChannel channel) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(256);
            int n = channel.read(buffer, 0);
            return n <= 0 ? "" : new String(buffer.array(), 0, n, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "";
        }
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "this host";
        }
    }

    public Path path() {
        return path;
    }

    public boolean isValid() {
        return lock.isValid();
    }

    /** Releases the lock (the file stays: removing it would race a waiting opener). */
    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // closing the channel below releases it anyway
        }
        try {
            channel.close();
        } catch (IOException e) {
            // nothing left to do
        }
    }
}
