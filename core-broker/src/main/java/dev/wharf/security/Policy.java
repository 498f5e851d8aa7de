package dev.wharf.security;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/** Allows or denies some actions on the resources of a pattern; a matching DENY wins over any ALLOW. */
public record Policy(ResourcePattern resource, Set<Action> actions, boolean allow) {

    public Policy {
        Objects.requireNonNull(resource, "resource");
        EnumSet<Action> ordered = EnumSet.noneOf(Action.class);
        ordered.addAll(actions);
        actions = Collections.unmodifiableSet(ordered);
    }

    public static Policy allow(String resource, Action... actions) {
        return new Policy(ResourcePattern.parse(resource), Set.of(actions), true);
    }

    public static Policy deny(String resource, Action... actions) {
        return new Policy(ResourcePattern.parse(resource), Set.of(actions), false);
    }

    boolean covers(Resource target, Action action) {
        return actions.contains(action) && resource.matches(target);
    }

    @Override
    public String toString() {
        return (allow ? "ALLOW " : "DENY ") + actions + " on " + resource;
    }
}
