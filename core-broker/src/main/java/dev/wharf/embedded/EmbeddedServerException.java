package dev.wharf.embedded;

/**
 * A part of an {@link EmbeddedServer} did not start; whatever had started before it is stopped again. The message
 * names the part and its address or store folder; {@link #part()} lets a caller add the hint of its own surface (a
 * command-line flag, a Spring property, a URL setting).
 */
public final class EmbeddedServerException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** What failed to start. */
    public enum Part {
        /** The NameServer: usually its port is taken. */
        NAME_SERVER,
        /** The metrics endpoint of the NameServer. */
        NAME_SERVER_METRICS,
        /** The broker: its port is taken, or its store folder is unusable or used by another running broker. */
        BROKER,
        /**
         * The broker cannot reach a NameServer that shares its security: it lacks the credentials or the TLS its
         * registration needs.
         */
        SECURITY
    }

    private final Part part;

    EmbeddedServerException(Part part, String message, Throwable cause) {
        super(message, cause);
        this.part = part;
    }

    public Part part() {
        return part;
    }
}
