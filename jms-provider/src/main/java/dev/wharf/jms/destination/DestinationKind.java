package dev.wharf.jms.destination;

/** The four kinds of JMS destination and the URI scheme each travels under. */
public enum DestinationKind {
    QUEUE("queue", "queue", false),
    TOPIC("topic", "topic", false),
    TEMPORARY_QUEUE("temp-queue", "temporary queue", true),
    TEMPORARY_TOPIC("temp-topic", "temporary topic", true);

    private final String scheme;
    private final String label;
    private final boolean temporary;

    DestinationKind(String scheme, String label, boolean temporary) {
        this.scheme = scheme;
        this.label = label;
        this.temporary = temporary;
    }

    /** The URI scheme, e.g. {@code temp-queue}. */
    public String scheme() {
        return scheme;
    }

    /** Words for messages, e.g. "temporary queue". */
    public String label() {
        return label;
    }

    public boolean isTemporary() {
        return temporary;
    }

    /** Whether messages go to one consumer of a group (point-to-point) rather than to every subscriber. */
    public boolean isQueue() {
        return this == QUEUE || this == TEMPORARY_QUEUE;
    }

    /** The kind whose scheme is {@code scheme}, or null. */
    public static DestinationKind ofScheme(String scheme) {
        for (DestinationKind k : values()) {
            if (k.scheme.equals(scheme)) {
                return k;
            }
        }
        return null;
    }
}
