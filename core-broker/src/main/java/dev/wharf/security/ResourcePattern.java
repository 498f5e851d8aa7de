package dev.wharf.security;

import java.util.Locale;
import java.util.Objects;

/**
 * The resources a policy covers: {@code topic:orders} (exactly that name), {@code topic:orders-*} (every name with
 * that prefix) or {@code topic:*} (every topic).
 */
public record ResourcePattern(ResourceType type, String name, boolean prefix) {

    public ResourcePattern {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    /**
     * Parses {@code type:name}, {@code type:prefix*} or {@code type:*}.
     *
     * @throws IllegalArgumentException the text is in none of these forms; the message shows them
     */
    public static ResourcePattern parse(String text) {
        int colon = text == null ? -1 : text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("resource '" + text + "' is not <type>:<name>; write e.g. topic:orders,"
                    + " topic:orders-* or group:*, with type one of topic, group, cluster");
        }
        ResourceType type;
        try {
            type = ResourceType.valueOf(text.substring(0, colon).trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("resource '" + text + "' has an unknown type '"
                    + text.substring(0, colon) + "'; use topic, group or cluster", e);
        }
        String name = text.substring(colon + 1).trim();
        int star = name.indexOf('*');
        if (star >= 0 && star != name.length() - 1) {
            throw new IllegalArgumentException("resource '" + text + "' has '*' before its end; a pattern may only"
                    + " end with '*' (a prefix), as in topic:orders-*");
        }
        return star < 0 ? new ResourcePattern(type, name, false)
                : new ResourcePattern(type, name.substring(0, star), true);
    }

    /** Whether the pattern covers {@code resource}. */
    public boolean matches(Resource resource) {
        if (resource.type() != type) {
            return false;
        }
        return prefix ? resource.name().startsWith(name) : resource.name().equals(name);
    }

    @Override
    public String toString() {
        return type.label() + ":" + name + (prefix ? "*" : "");
    }
}
