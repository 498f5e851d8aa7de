package dev.wharf.samples.order;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command-line arguments that keep a run's store and database in a test folder, and its output short. */
final class SampleArgs {

    private SampleArgs() {
    }

    static String databaseUrl(Path dir) {
        return "jdbc:h2:file:" + dir.resolve("orders") + ";WRITE_DELAY=0";
    }

    static String[] of(Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "--wharf.embedded.store-dir=" + dir.resolve("store"),
                "--spring.datasource.url=" + databaseUrl(dir),
                "--logging.level.dev.wharf.samples=WARN"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }
}
