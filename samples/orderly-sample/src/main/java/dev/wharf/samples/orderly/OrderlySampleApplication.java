package dev.wharf.samples.orderly;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Runs the orderly sample once and exits (0 when every listener got what it should). On the embedded broker by
 * default; {@code --wharf.url=wharf://host:9876} runs it against a standalone server.
 */
@SpringBootApplication
public class OrderlySampleApplication {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the sample and returns its exit code (the JVM keeps running). */
    public static int run(String... args) {
        return SpringApplication.exit(SpringApplication.run(OrderlySampleApplication.class, args));
    }
}
