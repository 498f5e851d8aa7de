package dev.wharf.console;

import dev.wharf.security.AclFile;
import dev.wharf.security.Action;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Policy;
import dev.wharf.security.User;
import java.nio.file.Path;
import java.util.List;

/** The console users the tests sign in as, in a users file of the broker's format. */
public final class TestUsers {

    public static final String ROOT = "root";
    public static final String ROOT_PASSWORD = "root-password";
    public static final String OPS = "ops";
    public static final String OPS_PASSWORD = "ops-password";
    public static final String VIEWER = "viewer";
    public static final String VIEWER_PASSWORD = "viewer-password";

    private TestUsers() {
    }

    /**
     * Writes {@code console-users.json} into {@code dir}: a super user, an operator allowed ADMIN on cluster:* (both
     * admins of the console), and a viewer who may read topics and administer one named cluster (read-only here).
     */
    public static Path write(Path dir) throws Exception {
        Path file = dir.resolve("console-users.json");
        AclFile.write(file, List.of(
                new User(ROOT, PasswordHasher.hash(ROOT, ROOT_PASSWORD.toCharArray()), true, List.of()),
                new User(OPS, PasswordHasher.hash(OPS, OPS_PASSWORD.toCharArray()), false,
                        List.of(Policy.allow("cluster:*", Action.ADMIN))),
                new User(VIEWER, PasswordHasher.hash(VIEWER, VIEWER_PASSWORD.toCharArray()), false,
                        List.of(Policy.allow("topic:*", Action.SUB), Policy.allow("cluster:eu-west", Action.ADMIN)))));
        return file;
    }
}
