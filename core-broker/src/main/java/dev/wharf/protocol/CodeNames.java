package dev.wharf.protocol;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/** Builds the code-to-name table of a constants class once, so the names can never drift from the values. */
public final class CodeNames {

    private final Map<Integer, String> names;

    private CodeNames(Map<Integer, String> names) {
        this.names = names;
    }

    static CodeNames of(Class<?> constants) {
        Map<Integer, String> names = new HashMap<>();
        for (Field field : constants.getDeclaredFields()) {
            int mod = field.getModifiers();
            if (field.getType() == int.class && Modifier.isStatic(mod) && Modifier.isFinal(mod)
                    && Modifier.isPublic(mod)) {
                try {
                    String previous = names.putIfAbsent(field.getInt(null), field.getName());
                    if (previous != null) {
                        throw new IllegalStateException(constants.getSimpleName() + " gives code "
                                + field.getInt(null) + " two names: " + previous + " and " + field.getName());
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return new CodeNames(Map.copyOf(names));
    }

    /** The constant's name, e.g. {@code "PULL_MESSAGE"}, or {@code "UNKNOWN(n)"}; meant for log lines. */
    public String name(int code) {
        String name = names.get(code);
        return name != null ? name : "UNKNOWN(" + code + ")";
    }

    /** {@code "PULL_MESSAGE(11)"}, or {@code "UNKNOWN(n)"} for a code not listed. */
    public String describe(int code) {
        String name = names.get(code);
        return name != null ? name + "(" + code + ")" : "UNKNOWN(" + code + ")";
    }

    /** Whether the code is one of the constants. */
    public boolean isKnown(int code) {
        return names.containsKey(code);
    }
}
