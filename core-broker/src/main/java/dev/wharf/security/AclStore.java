package dev.wharf.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The users of an {@link AclFile}, reloaded when the file changes: at most once per {@link #CHECK_INTERVAL_MILLIS}
 * a lookup compares the file's modification time and size with the last load (one {@code stat}, no thread of its
 * own). A file that fails to load is reported once and the previous users stay in force, so a typo cannot open
 * or lock the server.
 *
 * <p>Thread-safe: lookups read an immutable snapshot; one caller at a time reloads.
 */
public final class AclStore {

    /** How often the file's modification time is looked at. */
    public static final long CHECK_INTERVAL_MILLIS = 2_000;

    private static final Logger log = LoggerFactory.getLogger(AclStore.class);

    /** A user and its signing key, decoded once per load. */
    record Entry(User user, byte[] key) {
    }

    private record Snapshot(Map<String, Entry> users, FileTime modified, long size) {
    }

    private final Path path;
    private final LongSupplier clock;
    private final AtomicLong nextCheck = new AtomicLong();
    private volatile Snapshot snapshot;

    /**
     * Loads the file (a missing file means no users: every request is refused until one is created).
     *
     * @throws IOException the file exists but cannot be read or is invalid; the message says where
     */
    public AclStore(Path path, LongSupplier clock) throws IOException {
        this.path = path;
        this.clock = clock;
        this.snapshot = load();
        nextCheck.set(clock.getAsLong() + CHECK_INTERVAL_MILLIS);
        log.info("Users and policies from {}: {} users", path, snapshot.users().size());
    }

    public Path path() {
        return path;
    }

    /** The entry of {@code name}, or null; the file is reloaded first if it changed. */
    Entry find(String name) {
        reloadIfDue();
        return snapshot.users().get(name);
    }

    /** The entry of {@code name} as last loaded, or null; never reloads (for callers that must not block). */
    Entry current(String name) {
        return snapshot.users().get(name);
    }

    /** The user named {@code name}, or null. */
    public User user(String name) {
        Entry e = find(name);
        return e == null ? null : e.user();
    }

    /** How many users are loaded now. */
    public int size() {
        return snapshot.users().size();
    }

    /** Reloads now if the file changed (also called by lookups, at most once per check interval). */
    public void reloadIfChanged() {
        Snapshot current = snapshot;
        FileTime modified;
        long size;
        try {
            modified = Files.getLastModifiedTime(path);
            size = Files.size(path);
        } catch (NoSuchFileException e) {
            modified = null;
            size = -1;
        } catch (IOException e) {
            log.warn("Cannot look at {}: {}; keeping the {} users loaded before", path, e.toString(),
                    current.users().size());
            return;
        }
        if (java.util.Objects.equals(modified, current.modified()) && size == current.size()) {
            return;
        }
        try {
            Snapshot loaded = load();
            snapshot = loaded;
            log.info("Reloaded users and policies from {}: {} users", path, loaded.users().size());
        } catch (IOException | RuntimeException e) {
            // remember the broken version, so the warning is written once per change, not once per check
            snapshot = new Snapshot(current.users(), modified, size);
            log.warn("Keeping the {} users loaded before: {}", current.users().size(), e.getMessage());
        }
    }

    private void reloadIfDue() {
        long now = clock.getAsLong();
        long due = nextCheck.get();
        if (now >= due && nextCheck.compareAndSet(due, now + CHECK_INTERVAL_MILLIS)) {
            reloadIfChanged();
        }
    }

    private Snapshot load() throws IOException {
        FileTime modified = null;
        long size = -1;
        if (Files.exists(path)) {
            modified = Files.getLastModifiedTime(path);
            size = Files.size(path);
        }
        List<User> users = AclFile.read(path);
        Map<String, Entry> byName = new HashMap<>();
        for (User u : users) {
            byName.put(u.name(), new Entry(u, PasswordHasher.keyOf(u.name(), u.passwordHash())));
        }
        return new Snapshot(Map.copyOf(byName), modified, size);
    }
}
