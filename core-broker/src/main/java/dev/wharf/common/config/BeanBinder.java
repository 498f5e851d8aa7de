package dev.wharf.common.config;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Binds string settings (a config file, URL query parameters, CLI flags) to JavaBean setters by name, so that
 * configuration keys are exactly the setter names (RocketMQ's key names). A key no target has is reported,
 * with the closest known key as a hint, instead of being ignored; a value of the wrong form is rejected with
 * the key, the value and the expected form. A bean's {@link SettingsPart} accessors lead to smaller beans whose keys
 * count as the holder's own (a key declared twice in one holder is a programming error, reported as such).
 */
public final class BeanBinder {

    private BeanBinder() {
    }

    /**
     * Applies every setting to the first target that has a setter for it.
     *
     * @return the keys no target knows (empty when all were applied)
     * @throws IllegalArgumentException when a value cannot be converted to the setter's type
     */
    public static List<String> bind(Map<String, String> settings, Object... targets) {
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String key = e.getKey().trim();
            boolean applied = false;
            for (Object target : targets) {
                Binding binding = setters(target.getClass()).get(key);
                if (binding != null) {
                    invoke(binding.owner(target), binding.setter(), key, e.getValue());
                    applied = true;
                    break;
                }
            }
            if (!applied) {
                unknown.add(key);
            }
        }
        return unknown;
    }

    /**
     * Like {@link #bind} but fails on unknown keys.
     *
     * @param source names where the settings came from, for the error ("broker.conf", "the URL")
     */
    public static void bindStrict(Map<String, String> settings, String source, Object... targets) {
        List<String> unknown = bind(settings, targets);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(describeUnknown(unknown, source, targets));
        }
    }

    /** A sentence naming unknown keys, each with the closest known key when one is close. */
    public static String describeUnknown(List<String> unknown, String source, Object... targets) {
        List<String> known = new ArrayList<>();
        for (Object t : targets) {
            known.addAll(setters(t.getClass()).keySet());
        }
        String list = unknown.stream().map(k -> {
            String hint = closest(k, known);
            return "\"" + k + "\"" + (hint == null ? "" : " (did you mean \"" + hint + "\"?)");
        }).collect(Collectors.joining(", "));
        return "Unknown setting" + (unknown.size() > 1 ? "s " : " ") + list + " in " + source
                + "; check the spelling against the documented keys.";
    }

    /** The settable keys of a bean class, in name order. */
    public static List<String> keys(Class<?> type) {
        return setters(type).keySet().stream().sorted().toList();
    }

    /**
     * Reads every readable property of a bean, its parts' included, as strings (for printing the effective
     * configuration), in key order.
     */
    public static Map<String, String> read(Object bean) {
        Map<String, String> out = new TreeMap<>();
        readInto(bean, out);
        return new LinkedHashMap<>(out);
    }

    private static void readInto(Object bean, Map<String, String> out) {
        Map<String, Binding> setters = setters(bean.getClass());
        for (Method m : bean.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || m.getDeclaringClass() == Object.class || Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            if (m.isAnnotationPresent(SettingsPart.class)) {
                readInto(part(bean, m), out);
                continue;
            }
            String name = propertyName(m.getName(), m.getReturnType());
            Binding binding = name == null ? null : setters.get(name);
            if (binding != null && binding.path().isEmpty()) {
                try {
                    out.put(name, String.valueOf(m.invoke(bean)));
                } catch (ReflectiveOperationException e) {
                    out.put(name, "?");
                }
            }
        }
    }

    private static String propertyName(String method, Class<?> type) {
        if (method.startsWith("get") && method.length() > 3) {
            return decapitalize(method.substring(3));
        }
        if (method.startsWith("is") && method.length() > 2 && (type == boolean.class || type == Boolean.class)) {
            return decapitalize(method.substring(2));
        }
        return null;
    }

    /** The setter a key reaches: through the part accessors of {@code path} (empty: on the bean itself). */
    private record Binding(List<Method> path, Method setter) {

        Object owner(Object bean) {
            Object owner = bean;
            for (Method accessor : path) {
                owner = part(owner, accessor);
            }
            return owner;
        }
    }

    private static final ClassValue<Map<String, Binding>> SETTERS = new ClassValue<>() {
        @Override
        protected Map<String, Binding> computeValue(Class<?> type) {
            return Collections.unmodifiableMap(collectSetters(type));
        }
    };

    private static Map<String, Binding> setters(Class<?> type) {
        return SETTERS.get(type);
    }

    private static Map<String, Binding> collectSetters(Class<?> type) {
        Map<String, Binding> out = new LinkedHashMap<>();
        Method[] methods = type.getMethods();
        Arrays.sort(methods, Comparator.comparing(Method::getName));
        for (Method m : methods) {
            if (m.getName().startsWith("set") && m.getName().length() > 3 && m.getParameterCount() == 1
                    && !Modifier.isStatic(m.getModifiers()) && isSupported(m.getParameterTypes()[0])) {
                out.putIfAbsent(decapitalize(m.getName().substring(3)), new Binding(List.of(), m));
            }
        }
        for (Method accessor : methods) {
            if (!accessor.isAnnotationPresent(SettingsPart.class)) {
                continue;
            }
            if (accessor.getParameterCount() != 0 || Modifier.isStatic(accessor.getModifiers())) {
                throw new IllegalStateException("@SettingsPart " + type.getName() + "." + accessor.getName()
                        + " must be an instance accessor without parameters.");
            }
            for (Map.Entry<String, Binding> e : setters(accessor.getReturnType()).entrySet()) {
                List<Method> path = new ArrayList<>();
                path.add(accessor);
                path.addAll(e.getValue().path());
                Binding previous = out.putIfAbsent(e.getKey(), new Binding(List.copyOf(path), e.getValue().setter()));
                if (previous != null) {
                    throw new IllegalStateException("Key \"" + e.getKey() + "\" is declared twice in " + type.getName()
                            + " (by " + previous.setter().getDeclaringClass().getSimpleName() + " and by "
                            + e.getValue().setter().getDeclaringClass().getSimpleName() + "); keep it in one part.");
                }
            }
        }
        return out;
    }

    private static Object part(Object bean, Method accessor) {
        try {
            return Objects.requireNonNull(accessor.invoke(bean), accessor.getName());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot read the settings part " + accessor.getName() + " of "
                    + bean.getClass().getName(), e);
        }
    }

    private static boolean isSupported(Class<?> t) {
        return t == String.class || t == int.class || t == Integer.class || t == long.class || t == Long.class
                || t == boolean.class || t == Boolean.class || t == double.class || t == Double.class || t.isEnum();
    }

    private static String decapitalize(String s) {
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private static void invoke(Object target, Method setter, String key, String raw) {
        Object value = convert(setter.getParameterTypes()[0], key, raw == null ? "" : raw.trim());
        try {
            setter.invoke(target, value);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new IllegalArgumentException("Setting " + key + "=" + raw + " was refused: "
                    + (cause == null ? e.getMessage() : cause.getMessage()), cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object convert(Class<?> t, String key, String raw) {
        try {
            if (t == String.class) {
                return raw;
            }
            if (t == int.class || t == Integer.class) {
                return Integer.parseInt(raw);
            }
            if (t == long.class || t == Long.class) {
                return Long.parseLong(raw);
            }
            if (t == double.class || t == Double.class) {
                return Double.parseDouble(raw);
            }
            if (t == boolean.class || t == Boolean.class) {
                if (raw.equalsIgnoreCase("true") || raw.equalsIgnoreCase("false")) {
                    return Boolean.parseBoolean(raw);
                }
                throw new IllegalArgumentException();
            }
            if (t.isEnum()) {
                for (Object c : t.getEnumConstants()) {
                    if (((Enum<?>) c).name().equalsIgnoreCase(raw)) {
                        return c;
                    }
                }
                throw new IllegalArgumentException("Setting " + key + "=" + raw + " is not one of "
                        + Arrays.stream(t.getEnumConstants()).map(String::valueOf).collect(Collectors.joining(", ")) + ".");
            }
        } catch (NumberFormatException e) {
            // fall through to the sentence below
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null) {
                throw e;
            }
        }
        throw new IllegalArgumentException("Setting " + key + "=" + raw + " is not a valid "
                + t.getSimpleName().toLowerCase(Locale.ROOT) + ".");
    }

    private static String closest(String key, List<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(key.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return bestDistance <= Math.max(2, key.length() / 4) ? best : null;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
