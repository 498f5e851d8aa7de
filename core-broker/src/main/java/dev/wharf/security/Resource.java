package dev.wharf.security;

import java.util.Objects;

/** One resource a request touches, e.g. topic {@code orders}. */
public record Resource(ResourceType type, String name) {

    public Resource {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    public static Resource topic(String name) {
        return new Resource(ResourceType.TOPIC, name);
    }

    public static Resource group(String name) {
        return new Resource(ResourceType.GROUP, name);
    }

    public static Resource cluster(String name) {
        return new Resource(ResourceType.CLUSTER, name);
    }

    /** {@code topic:orders}. */
    @Override
    public String toString() {
        return type.label() + ":" + name;
    }
}
