package dev.wharf.security;

/** The kinds of resources policies name, written in lower case before a colon: {@code topic:orders}. */
public enum ResourceType {
    TOPIC,
    GROUP,
    /** A broker cluster (its name); broker registration and replication need ADMIN on it. */
    CLUSTER;

    /** The prefix used in policies and error messages, e.g. {@code "topic"}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
