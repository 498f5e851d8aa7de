package dev.wharf.controller.state;

import dev.wharf.protocol.body.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of the whole controller state, written as one JSON file by the state machine (Ratis names the file
 * {@code snapshot.TERM_INDEX} and keeps an MD5 beside it). Fields: {@code version} (1), the {@code term} and
 * {@code index} of the last applied log entry it includes, {@code groups} (each a {@link GroupRecord}), and
 * {@code members} (controller node id to remoting address). A reader refuses a version it does not know.
 */
public record StateSnapshot(int version, long term, long index, List<GroupRecord> groups, Map<String, String> members) {

    public static final int VERSION = 1;

    public StateSnapshot {
        groups = List.copyOf(groups);
        members = Map.copyOf(members);
    }

    void writeTo(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, Json.encode(this));
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    static StateSnapshot readFrom(Path file) throws IOException {
        StateSnapshot s;
        try {
            s = Json.decode(Files.readAllBytes(file), StateSnapshot.class);
        } catch (IllegalArgumentException e) {
            throw new IOException("controller snapshot " + file + " is not readable: " + e.getMessage(), e);
        }
        if (s.version() != VERSION) {
            throw new IOException("controller snapshot " + file + " has version " + s.version() + "; this node reads "
                    + VERSION + " (upgrade every controller node to the same version)");
        }
        return s;
    }
}
