package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.testing.TestWharf;
import jakarta.jms.Connection;
import jakarta.jms.InvalidClientIDException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client id identifies one connection at a time across processes (6.1.2): the brokers refuse it to a second
 * process while the first holds it, and free it when the first process dies.
 */
class ClientIdAcrossProcessesTest {

    @TempDir
    Path store;

    @Test
    void aClientIdHeldByAnotherProcessIsRefusedUntilThatProcessDies() throws Exception {
        try (TestWharf wharf = TestWharf.loopback(store)) {
            Process holder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                    "-cp", System.getProperty("java.class.path"), ClientIdHolderMain.class.getName(),
                    wharf.url(), "billing-1").redirectErrorStream(true).start();
            try {
                BufferedReader lines = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                        StandardCharsets.UTF_8));
                String line;
                do {
                    line = lines.readLine();
                } while (line != null && !line.equals("HOLDING"));
                assertThat(line).as("the other process holds the client id").isEqualTo("HOLDING");

                WharfConnectionFactory factory = new WharfConnectionFactory(wharf.url());
                try (Connection c = factory.createConnection()) {
                    assertThatThrownBy(() -> c.setClientID("billing-1"))
                            .isInstanceOf(InvalidClientIDException.class)
                            .hasMessageContaining("another process");
                }
                // a factory's options are fixed once it connected: the administratively configured id needs its own
                WharfConnectionFactory configured = new WharfConnectionFactory(wharf.url());
                configured.setClientID("billing-1");
                assertThatThrownBy(configured::createConnection).isInstanceOf(InvalidClientIDException.class);
            } finally {
                holder.destroyForcibly();
                holder.waitFor(10, TimeUnit.SECONDS);
            }
            // the broker frees the id with the dead process's connection
            WharfConnectionFactory factory = new WharfConnectionFactory(wharf.url());
            await().atMost(Duration.ofSeconds(20)).ignoreExceptionsInstanceOf(InvalidClientIDException.class)
                    .until(() -> {
                        try (Connection c = factory.createConnection()) {
                            c.setClientID("billing-1");
                            return true;
                        }
                    });
        }
    }
}
