package dev.wharf.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of a benchmark: {@code --option value} pairs and value-less flags, each checked against the
 * benchmark's known names, and the {@code --dir} folder the benchmark works in (a fresh temporary one when none is
 * given, which the benchmark deletes at the end).
 */
public final class BenchArgs {

    private final Map<String, String> values = new HashMap<>();
    private final Set<String> flagsGiven = new HashSet<>();
    private boolean temporaryDir;

    private BenchArgs() {
    }

    /**
     * @param options the names that take a value
     * @param flags   the names that take none
     * @throws IllegalArgumentException naming an unknown option, or one whose value is missing
     */
    public static BenchArgs parse(String[] args, List<String> options, String... flags) {
        BenchArgs parsed = new BenchArgs();
        Set<String> flagNames = Set.of(flags);
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (flagNames.contains(name)) {
                parsed.flagsGiven.add(name);
            } else if (options.contains(name)) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(name + " needs a value");
                }
                parsed.values.put(name, args[++i]);
            } else {
                throw new IllegalArgumentException("Unknown option " + name + "; known: "
                        + String.join(", ", options) + (flags.length == 0 ? "" : ", " + String.join(", ", flags)));
            }
        }
        return parsed;
    }

    public boolean flag(String name) {
        return flagsGiven.contains(name);
    }

    public String text(String option, String otherwise) {
        return values.getOrDefault(option, otherwise);
    }

    public int integer(String option, int otherwise) {
        String v = values.get(option);
        return v == null ? otherwise : Integer.parseInt(v);
    }

    public double decimal(String option, double otherwise) {
        String v = values.get(option);
        return v == null ? otherwise : Double.parseDouble(v);
    }

    /** The {@code --dir} folder, created if missing, or a fresh temporary one named after {@code tempPrefix}. */
    public Path dir(String tempPrefix) throws IOException {
        String given = values.get("--dir");
        if (given == null) {
            temporaryDir = true;
            return Files.createTempDirectory(tempPrefix);
        }
        return Files.createDirectories(Path.of(given));
    }

    /** Whether {@link #dir} made a temporary folder, which the benchmark deletes when it ends. */
    public boolean temporaryDir() {
        return temporaryDir;
    }
}
