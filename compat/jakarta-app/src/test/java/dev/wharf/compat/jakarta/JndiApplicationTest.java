package dev.wharf.compat.jakarta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.testing.TestWharf;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application of {@link JndiMessagingApp} run as a user would run it: in its own JVM, whose classpath is a folder
 * with {@code jndi.properties}, the application's classes and the module's runtime classpath (wharf-jms with its
 * runtime dependencies and jakarta.jms-api, written by the build into {@code target/application-classpath.txt}),
 * nothing else: no Spring, no test library, no logging binding.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JndiApplicationTest {

    /** What must never reach the application's classpath. */
    private static final List<String> FOREIGN = List.of("spring", "junit", "assertj", "awaitility", "logback",
            "test-classes", "-tests.jar", "opentest4j", "apiguardian");

    @TempDir
    Path dir;

    @Test
    void looksUpTheFactoryQueueAndTopicFromJndiPropertiesAndExchangesMessages() throws Exception {
        try (TestWharf wharf = TestWharf.loopback(dir.resolve("store"))) {
            // the README's JMS section, with the test broker's address
            Path conf = jndiProperties(
                    "java.naming.factory.initial=dev.wharf.jms.jndi.WharfInitialContextFactory",
                    "connectionFactory.ConnectionFactory=" + wharf.url(),
                    "queue.jms/orders=orders",
                    "topic.jms/prices=prices");

            Run run = runApplication(conf, "3");

            assertThat(run.exitCode).as(run.output).isZero();
            assertThat(run.output)
                    .contains("looked up ConnectionFactory (dev.wharf.jms.WharfConnectionFactory), queue orders,"
                            + " topic prices")
                    .contains("sent 3 to queue orders and 3 to topic prices")
                    .contains("received from queue orders: order 1", "received from queue orders: order 2",
                            "received from queue orders: order 3")
                    .contains("received from topic prices: price 1", "received from topic prices: price 2",
                            "received from topic prices: price 3")
                    .contains("OK: 3 messages each through queue orders and topic prices");
            // the messages went through the broker's store, not around it
            assertThat(storedIn(wharf, "orders")).as("messages stored for queue orders").isEqualTo(3);
            assertThat(storedIn(wharf, "prices")).as("messages stored for topic prices").isEqualTo(3);
        }
    }

    @Test
    void aMalformedProviderUrlStopsTheApplicationWithAnErrorNamingTheProperty() throws Exception {
        Path conf = jndiProperties(
                "java.naming.factory.initial=dev.wharf.jms.jndi.WharfInitialContextFactory",
                "java.naming.provider.url=wharf://localhost:port",
                "queue.jms/orders=orders",
                "topic.jms/prices=prices");

        Run run = runApplication(conf, "1");

        assertThat(run.exitCode).as(run.output).isEqualTo(JndiMessagingApp.BAD_CONFIGURATION);
        assertThat(run.output).contains("JNDI configuration failed (check jndi.properties on the classpath)")
                .contains("\"java.naming.provider.url\" is invalid")
                .doesNotContain("Exception in thread");
    }

    @Test
    void aMalformedConnectionFactoryUrlNamesItsEntry() throws Exception {
        Path conf = jndiProperties(
                "java.naming.factory.initial=dev.wharf.jms.jndi.WharfInitialContextFactory",
                "connectionFactory.ConnectionFactory=tcp://localhost:9876",
                "queue.jms/orders=orders",
                "topic.jms/prices=prices");

        Run run = runApplication(conf, "1");

        assertThat(run.exitCode).as(run.output).isEqualTo(JndiMessagingApp.BAD_CONFIGURATION);
        assertThat(run.output).contains("\"connectionFactory.ConnectionFactory\" is invalid")
                .contains("wharf://");
    }

    private static long storedIn(TestWharf wharf, String topic) {
        TopicConfig config = wharf.broker().topics().find(topic);
        assertThat(config).as("topic %s on the broker", topic).isNotNull();
        long stored = 0;
        for (int q = 0; q < config.writeQueueNums(); q++) {
            stored += wharf.broker().store().getMaxOffsetInQueue(topic, q);
        }
        return stored;
    }

    private Path jndiProperties(String... lines) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Files.writeString(conf.resolve("jndi.properties"), String.join("\n", lines) + "\n");
        return conf;
    }

    private record Run(int exitCode, String output) {
    }

    /** Starts the application in a JVM of its own and waits for it to end. */
    private Run runApplication(Path conf, String... args) throws Exception {
        List<String> classpath = new ArrayList<>();
        classpath.add(conf.toString());
        classpath.add(applicationClasses().toString());
        classpath.addAll(runtimeClasspath());

        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", String.join(File.pathSeparator, classpath), JndiMessagingApp.class.getName()));
        command.addAll(Arrays.asList(args));
        Path log = dir.resolve("application-" + System.nanoTime() + ".log");
        Process app = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(app.waitFor(90, TimeUnit.SECONDS)).as("the application ended").isTrue();
            return new Run(app.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            app.destroyForcibly();
        }
    }

    /** The module's runtime classpath as the build wrote it, checked to hold wharf-jms, the JMS API and no more. */
    private static List<String> runtimeClasspath() throws IOException {
        Path file = Path.of("target", "application-classpath.txt");
        assertThat(file).as("written by maven-dependency-plugin's build-classpath before the tests").exists();
        List<String> entries = Arrays.stream(Files.readString(file).strip().split(File.pathSeparator))
                .filter(e -> !e.isBlank()).toList();
        assertThat(entries).as("wharf-jms (its jar, or its classes in a reactor build)")
                .anyMatch(e -> e.contains("wharf-jms") || e.replace('\\', '/').contains("jms-provider/target"));
        assertThat(entries).anyMatch(e -> e.contains("jakarta.jms-api"));
        for (String e : entries) {
            String lower = e.toLowerCase();
            assertThat(FOREIGN).as("%s on the application's classpath", e).noneMatch(lower::contains);
        }
        return entries;
    }

    private static Path applicationClasses() throws URISyntaxException {
        return Path.of(JndiMessagingApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
