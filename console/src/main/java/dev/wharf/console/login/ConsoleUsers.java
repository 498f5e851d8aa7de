package dev.wharf.console.login;

import dev.wharf.console.ConsoleSettings;
import dev.wharf.console.StartupRefusal;
import dev.wharf.security.AccessController;
import dev.wharf.security.AclStore;
import dev.wharf.security.Action;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Resource;
import dev.wharf.security.User;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The console's users: the users file named by {@code wharf.console.users-file}, in the format of the broker's
 * {@code acl.json} (made with {@code wharf admin user-create}, reloaded when it changes). Super users and users
 * allowed ADMIN on {@code cluster:*} get the admin role; every other user of the file may sign in read-only.
 *
 * <p>Without a users file the console has no login, and then it refuses to start on an address other than loopback
 * unless {@code wharf.console.insecure=true} says that is meant.
 */
@Component
public class ConsoleUsers {

    private static final Logger log = LoggerFactory.getLogger(ConsoleUsers.class);
    /** Hashed for unknown user names, so that they cost what a wrong password costs. */
    private static final char[] DECOY = "decoy-password".toCharArray();

    private final AclStore store;
    private final AccessController access;

    public ConsoleUsers(ConsoleSettings settings, @Value("${server.address:}") String address) {
        String file = settings.usersFile();
        if (file == null || file.isBlank()) {
            store = null;
            access = null;
            checkExposure(address, false, settings.insecure());
            if (!isLoopback(address)) {
                log.warn("The console listens on {} WITHOUT A LOGIN (--insecure): anyone who reaches it can delete"
                        + " topics, reset offsets and resend dead letters. Give it users with --users FILE.",
                        address.isBlank() ? "every interface" : address);
            }
            return;
        }
        Path path = Path.of(file.trim());
        if (!Files.isRegularFile(path)) {
            throw new StartupRefusal("The console's users file " + path + " does not exist.", "Create users in it"
                    + " with: WHARF_ACL_FILE=" + path + " bin/wharf admin user-create NAME --new-password");
        }
        try {
            store = new AclStore(path, System::currentTimeMillis);
        } catch (IOException | IllegalArgumentException e) {
            throw new StartupRefusal("The console's users file cannot be used: " + e.getMessage(), "Correct it, or"
                    + " make it again with: WHARF_ACL_FILE=" + path + " bin/wharf admin user-create NAME"
                    + " --new-password");
        }
        if (store.size() == 0) {
            throw new StartupRefusal("The console's users file " + path + " lists no user; nobody could sign in.",
                    "Create one with: WHARF_ACL_FILE=" + path + " bin/wharf admin user-create NAME --new-password");
        }
        access = new AccessController(store, 0, System::currentTimeMillis);
    }

    /**
     * Refuses a console without users on an address other than loopback, unless {@code insecure}.
     *
     * @param address the address the console listens on; blank: every interface
     * @throws StartupRefusal saying what to do
     */
    static void checkExposure(String address, boolean usersConfigured, boolean insecure) {
        if (usersConfigured || insecure || isLoopback(address)) {
            return;
        }
        throw new StartupRefusal("The console would listen on " + (address == null || address.isBlank()
                ? "every interface" : address) + " without a login, and its pages delete topics, reset offsets"
                + " and resend dead letters.", "Give it users with --users FILE (the broker's users-file format,"
                + " made with 'wharf admin user-create'), listen on loopback (--bind 127.0.0.1), or start it with"
                + " --insecure to run it open on purpose.");
    }

    private static boolean isLoopback(String address) {
        if (address == null || address.isBlank()) {
            return false;
        }
        try {
            return InetAddress.getByName(address.trim()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Whether pages need a signed-in user (a users file is configured). */
    public boolean loginRequired() {
        return store != null;
    }

    /**
     * The user with that name and password, or null for an unknown name or a wrong password alike (the caller must
     * not tell them apart either). Takes about 0.1 s either way (PBKDF2).
     */
    public ConsoleUser authenticate(String name, char[] password) {
        if (store == null) {
            throw new IllegalStateException("the console has no users file; nobody signs in");
        }
        User user = name == null || name.isBlank() ? null : store.user(name.trim());
        try {
            if (user == null) {
                PasswordHasher.hash("unknown-user", DECOY);
                return null;
            }
            if (!PasswordHasher.matches(user.name(), password, user.passwordHash())) {
                return null;
            }
        } catch (IllegalArgumentException e) {
            return null; // a password too short to be anyone's
        }
        return new ConsoleUser(user.name(), roleOf(user));
    }

    /** The role of a user as the file grants it now (a changed file changes it at the next request). */
    public Role roleOf(String name) {
        User user = store == null ? null : store.user(name);
        return user == null ? null : roleOf(user);
    }

    private Role roleOf(User user) {
        return user.superUser() || access.authorize(user, Resource.cluster("*"), Action.ADMIN) == null
                ? Role.ADMIN : Role.READ_ONLY;
    }
}
