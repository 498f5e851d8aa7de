package dev.wharf.samples.order;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * Runs the order sample once: places the orders, waits until every one is settled (paid, cancelled or
 * dead-lettered), prints a summary and exits (0 when every order settled in time, 1 otherwise). On the embedded
 * broker by default; {@code --wharf.url=wharf://host:9876} runs it against a standalone server.
 */
@SpringBootApplication
@EnableConfigurationProperties(OrderSampleProperties.class)
public class OrderSampleApplication {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the sample and returns its exit code (the JVM keeps running). */
    public static int run(String... args) {
        return SpringApplication.exit(SpringApplication.run(OrderSampleApplication.class, args));
    }
}
