package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.common.config.BeanBinder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Brings the keys of a Spring map property to the setter names Wharf's configuration beans use. Spring hands map
 * keys over as written in a properties or YAML file ({@code transactionCheckInterval}), in kebab case
 * ({@code transaction-check-interval}) or lower-cased from environment variables
 * ({@code transactioncheckinterval}); all of them name the same setting. A key that matches no setter is kept as
 * written, so that the binder reports it with a hint.
 */
final class SettingKeys {

    private SettingKeys() {
    }

    /** The settings with each key replaced by the setter name it denotes among {@code types}' setters. */
    static Map<String, String> canonical(Map<String, String> settings, Class<?>... types) {
        List<String> names = new ArrayList<>();
        for (Class<?> type : types) {
            names.addAll(BeanBinder.keys(type));
        }
        return canonical(settings, names);
    }

    /** The settings with each key replaced by the one of {@code names} it denotes. */
    static Map<String, String> canonical(Map<String, String> settings, List<String> names) {
        Map<String, String> byLooseName = new HashMap<>();
        for (String key : names) {
            byLooseName.putIfAbsent(loose(key), key);
        }
        Map<String, String> out = new LinkedHashMap<>();
        settings.forEach((key, value) -> out.put(byLooseName.getOrDefault(loose(key), key), value));
        return out;
    }

    /** Whether a key names one of {@code names}, in any of the forms above. */
    static boolean denotes(String key, List<String> names) {
        String k = loose(key);
        return names.stream().anyMatch(n -> loose(n).equals(k));
    }

    private static String loose(String key) {
        return key.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    }
}
