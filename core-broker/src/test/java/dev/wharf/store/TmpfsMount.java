package dev.wharf.store;

import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs the test mounts itself, so that "disk full" is real: writes past its size fail with ENOSPC and
 * mapped pages it cannot hold fault (SIGBUS). Needs root (CI runs tests as root); where mounting is impossible the
 * test is skipped with the reason. {@link #close()} unmounts, also after a failed test.
 */
public final class TmpfsMount implements AutoCloseable {

    private final Path dir;
    private final Path filler;

    private TmpfsMount(Path dir) {
        this.dir = dir;
        this.filler = dir.resolve("filler");
    }

    /** Mounts a tmpfs of {@code sizeMiB} MiB on {@code dir} (created when missing); skips the test when impossible. */
    public static TmpfsMount mount(Path dir, int sizeMiB) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String output = run("mount", "-t", "tmpfs", "-o", "size=" + sizeMiB + "m", "tmpfs", dir.toString());
        if (output != null) {
            abort("Cannot mount a tmpfs for the full-disk test (needs root and mount rights): " + output);
        }
        return new TmpfsMount(dir);
    }

    public Path dir() {
        return dir;
    }

    /** Fills the file system with a filler file until it is full; returns the bytes written. */
    public long fill() throws IOException {
        byte[] chunk = new byte[64 * 1024];
        long written = 0;
        try (OutputStream out = Files.newOutputStream(filler, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND)) {
            for (;;) {
                out.write(chunk);
                written += chunk.length;
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left")) {
                throw e;
            }
        }
        // a partly written chunk may still fit in single pages; take them too
        byte[] page = new byte[4096];
        try (OutputStream out = Files.newOutputStream(filler, java.nio.file.StandardOpenOption.APPEND)) {
            for (;;) {
                out.write(page);
                written += page.length;
            }
        } catch (IOException e) {
            // full
        }
        return written;
    }

    /** Deletes the filler file. */
    public void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    public long usableBytes() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        String output = run("umount", dir.toString());
        if (output != null) {
            // something (a store still mapped) holds it: lazily detach so the next run is not left a mount
            run("umount", "-l", dir.toString());
        }
    }

    /** Runs a command; null when it succeeded, else what it printed. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        } catch (IOException e) {
            return command[0] + " could not run: " + e.getMessage();
        }
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return command[0] + " did not finish within 20 s";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return p.exitValue() == 0 ? null : command[0] + " exited with " + p.exitValue() + ": " + out;
    }
}
