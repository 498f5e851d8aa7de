package dev.wharf.jms.engine;

import jakarta.jms.InvalidClientIDException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client identifiers held by the open connections of this JVM. Jakarta Messaging 3.1, 6.1.2: a client
 * identifier may be used by one connection at a time. This is the fast check among the connections of one JVM; a
 * connection then also claims the identifier on every broker, which refuses it to connections of other processes.
 * Thread-safe.
 */
public final class ClientIds {

    private static final Set<String> IN_USE = ConcurrentHashMap.newKeySet();

    private ClientIds() {
    }

    /**
     * Takes an identifier for a connection.
     *
     * @throws InvalidClientIDException when another open connection of this JVM holds it
     */
    public static void claim(String clientId) throws InvalidClientIDException {
        if (!IN_USE.add(clientId)) {
            throw new InvalidClientIDException("The client id \"" + clientId + "\" is already used by another open"
                    + " connection; a client id identifies one connection at a time. Close that connection first or"
                    + " give this one another client id.");
        }
    }

    /** Gives an identifier back (when its connection closes); unknown identifiers are ignored. */
    public static void release(String clientId) {
        if (clientId != null) {
            IN_USE.remove(clientId);
        }
    }

    /** Whether an open connection of this JVM holds the identifier. */
    public static boolean inUse(String clientId) {
        return IN_USE.contains(clientId);
    }
}
