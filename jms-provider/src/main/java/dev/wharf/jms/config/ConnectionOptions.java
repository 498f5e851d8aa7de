package dev.wharf.jms.config;

import java.io.Serial;

/**
 * The options of a connection factory, as JavaBean properties whose names are also the URL parameter names
 * ({@code wharf://host:9876?maxReconsumeTimes=3}); each option, with its default, range and meaning, is declared
 * in {@link ConnectionOptionTable}. Every setter checks its value and refuses a bad one with an
 * {@link IllegalArgumentException} that names the option, the value and the allowed range. Not thread-safe:
 * configure, then share. Two option sets are equal when their {@link #toSettings() settings} are.
 */
public class ConnectionOptions extends AbstractConnectionOptions {

    @Serial
    private static final long serialVersionUID = 2L;

    public static final String DEFAULT_PRODUCER_GROUP = ConnectionOptionTable.DEFAULT_PRODUCER_GROUP;
    /** Longest client id, so that the consumer groups derived from it stay within the name limit. */
    public static final int MAX_CLIENT_ID_LENGTH = ConnectionOptionTable.MAX_CLIENT_ID_LENGTH;

    public ConnectionOptions() {
    }

    /** A copy of {@code other}'s options. */
    public ConnectionOptions(AbstractConnectionOptions other) {
        copyFrom(other);
    }

    /**
     * Checks a client id.
     *
     * @return null when it is valid, else a sentence saying what is wrong
     */
    public static String clientIdProblem(String clientID) {
        return ConnectionOptionTable.clientIdProblem(clientID);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnectionOptions other && other.toSettings().equals(toSettings());
    }

    @Override
    public int hashCode() {
        return toSettings().hashCode();
    }

    @Override
    public String toString() {
        return "ConnectionOptions" + toSettings();
    }
}
