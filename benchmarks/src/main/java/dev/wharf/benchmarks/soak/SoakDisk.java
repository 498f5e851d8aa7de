package dev.wharf.benchmarks.soak;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small file system of its own for the store, so that "disk full" is real: an ext4 image on a loop device
 * (made with no reserved blocks, so root fills it like anyone else) or, where loop devices are missing, a
 * tmpfs. A ballast file fills it and is deleted again. {@link #close()} unmounts and removes the image, also
 * after a failure; a shutdown hook does the same when the tool is interrupted.
 */
// close() waits for a process or threads to end; an interrupt there is for the caller to see
@SuppressWarnings("try")
final class SoakDisk implements AutoCloseable {

    enum Kind { EXT4, TMPFS }

    private final Path mountPoint;
    private final Path image;
    private final Path ballast;
    private final Kind kind;
    private final Thread hook;
    private boolean closed;

    private SoakDisk(Path mountPoint, Path image, Kind kind) {
        this.mountPoint = mountPoint;
        this.image = image;
        this.ballast = mountPoint.resolve("ballast");
        this.kind = kind;
        this.hook = new Thread(this::closeQuietly, "soak-unmount");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Mounts a file system of {@code sizeMiB} MiB on {@code workDir/mnt}: ext4 on a loop device when
     * {@code preferred} is EXT4 and that works, else tmpfs.
     *
     * @throws IOException when neither can be mounted (needs root), naming what each attempt printed
     */
    static SoakDisk mount(Path workDir, int sizeMiB, Kind preferred) throws IOException, InterruptedException {
        Path mountPoint = workDir.resolve("mnt");
        Files.createDirectories(mountPoint);
        List<String> failures = new ArrayList<>();
        if (preferred == Kind.EXT4) {
            Path image = workDir.resolve("disk.img");
            String made = run("truncate", "-s", sizeMiB + "M", image.toString());
            if (made == null) {
                made = run("mkfs.ext4", "-q", "-F", "-m", "0", image.toString());
            }
            if (made == null) {
                made = run("mount", "-o", "loop", image.toString(), mountPoint.toString());
            }
            if (made == null) {
                return new SoakDisk(mountPoint, image, Kind.EXT4);
            }
            failures.add("ext4 on a loop device: " + made);
            Files.deleteIfExists(image);
        }
        String tmpfs = run("mount", "-t", "tmpfs", "-o", "size=" + sizeMiB + "m", "tmpfs", mountPoint.toString());
        if (tmpfs == null) {
            return new SoakDisk(mountPoint, null, Kind.TMPFS);
        }
        failures.add("tmpfs: " + tmpfs);
        throw new IOException("Cannot mount a small file system for the store (the soak needs root and mount "
                + "rights): " + String.join("; ", failures));
    }

    Path dir() {
        return mountPoint;
    }

    Kind kind() {
        return kind;
    }

    long usableBytes() throws IOException {
        return Files.getFileStore(mountPoint).getUsableSpace();
    }

    long totalBytes() throws IOException {
        return Files.getFileStore(mountPoint).getTotalSpace();
    }

    /** Fills the file system with the ballast file until a write fails with "no space"; returns its size. */
    long fill() throws IOException, InterruptedException {
        long free = usableBytes();
        if (free > 1 << 20) {
            // allocate the bulk at once (fast); the rest page by page below
            String failed = run("fallocate", "-l", Long.toString(free - (512 << 10)), ballast.toString());
            if (failed != null) {
                Files.deleteIfExists(ballast);
            }
        }
        byte[] page = new byte[4096];
        try (OutputStream out = Files.newOutputStream(ballast, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            for (;;) {
                out.write(page);
                out.flush();
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left")) {
                throw e;
            }
        }
        return Files.size(ballast);
    }

    /** Deletes the ballast file. */
    void free() throws IOException {
        Files.deleteIfExists(ballast);
    }

    @Override
    public synchronized void close() throws IOException, InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // called from the hook itself: the JVM is already shutting down
        }
        String failed = run("umount", mountPoint.toString());
        if (failed != null) {
            // something still holds it (a child being reaped): detach it lazily so no mount is left behind
            run("umount", "-l", mountPoint.toString());
        }
        if (image != null) {
            Files.deleteIfExists(image);
        }
        Files.deleteIfExists(mountPoint);
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException | InterruptedException | RuntimeException e) {
            System.err.println("soak: could not unmount " + mountPoint + ": " + e.getMessage());
        }
    }

    /** Runs a command; null when it succeeded, else what went wrong and what it printed. */
    static String run(String... command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        } catch (IOException e) {
            return command[0] + " could not run: " + e.getMessage();
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return command[0] + " did not finish within 60 s";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return p.exitValue() == 0 ? null : command[0] + " exited with " + p.exitValue() + ": " + out;
    }
}
