package dev.wharf.spring.boot.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.jms.spi.TransactionOutcome;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import dev.wharf.spring.boot.transaction.TransactionStats;
import dev.wharf.txchecker.JdbcTransactionLog;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code @Transactional} + JmsTemplate against a broker the test runs (as a separate server would be), with the
 * database in an H2 file through HikariCP: the message is delivered exactly when the database commits, also when
 * the sending JVM is killed between the database commit and the message commit (the broker's check-back reaches this
 * application, which finds the transaction-log row), and never when it is killed before the database commit. The
 * messages are streamed and flushed just before the database commits; a flush the broker refuses rolls the database
 * transaction back.
 */
@SpringBootTest(classes = ShopApplication.class, properties = {
        "wharf.producer-group=shop-producer",
        "wharf.transaction.rollback-after=2s",
        "spring.sql.init.mode=always"})
// closed after the class, before JUnit deletes the temp folder its broker still writes into
@DirtiesContext
class TransactionalMessagingTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static EmbeddedWharfBroker server;

    @DynamicPropertySource
    static void serverAndDatabase(DynamicPropertyRegistry registry) {
        registry.add("wharf.url", () -> "wharf://" + server().namesrvAddr());
        registry.add("spring.datasource.url", TransactionalMessagingTest::databaseUrl);
    }

    /**
     * A NameServer and broker that ask back every 500 ms about transactions older than 300 ms, and refuse messages
     * over 64 KiB.
     */
    private static synchronized EmbeddedWharfBroker server() {
        if (server == null) {
            BrokerSettings s = BrokerSettings.defaults();
            s.store().setStorePathRootDir(dir.resolve("broker").toString());
            s.store().setMappedFileSizeCommitLog(16 * 1024 * 1024);
            s.store().setMaxHashSlotNum(2_000);
            s.store().setMaxIndexNum(20_000);
            s.store().setMaxMessageSize(64 * 1024);
            s.netty().setListenPort(0);
            s.netty().setSelectorThreads(1);
            s.broker().executors().setSendMessageThreadPoolNums(2);
            s.broker().executors().setPullMessageThreadPoolNums(2);
            s.broker().transaction().setTransactionCheckInterval(500);
            s.broker().transaction().setTransactionTimeOut(300);
            server = EmbeddedWharfBroker.start(s, 0);
        }
        return server;
    }

    /** One database file shared with the child processes (the first process to open it serves the others). */
    private static String databaseUrl() {
        return "jdbc:h2:file:" + dir.resolve("shop") + ";AUTO_SERVER=TRUE";
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.stop();
        }
    }

    @Autowired
    OrderService orders;
    @Autowired
    ShopListeners listeners;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    JdbcTransactionLog transactionLog;
    @Autowired
    TransactionStats stats;

    @Test
    void aDatabaseCommitDeliversTheMessage() {
        orders.placeOrder(1, "book", false);

        await().atMost(WAIT).until(() -> listeners.bodies("orders").contains("order 1"));
        assertThat(orders.orderCount(1)).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM wharf_tx_log WHERE producer_group = 'shop-producer'",
                Long.class)).as("the transaction id was recorded with the order").isGreaterThanOrEqualTo(1);
    }

    @Test
    void aDatabaseRollbackDropsTheMessage() {
        long recordedBefore = stats.recorded();
        assertThatThrownBy(() -> orders.placeOrder(2, "lamp", true)).hasMessageContaining("payment declined");
        assertThat(stats.recorded()).as("the message was sent in the transaction").isGreaterThan(recordedBefore);

        awaitMarker(20);
        assertThat(listeners.bodies("orders")).doesNotContain("order 2");
        assertThat(orders.orderCount(2)).isZero();
    }

    @Test
    void aFlushTheBrokerRefusesRollsTheDatabaseTransactionBack() {
        long rolledBackBefore = stats.rolledBack();
        Long rowsBefore = jdbc.queryForObject("SELECT COUNT(*) FROM wharf_tx_log", Long.class);
        byte[] attachment = new byte[128 * 1024]; // random: compression cannot bring it under the broker's limit
        new java.util.Random(5).nextBytes(attachment);

        assertThatThrownBy(() -> orders.placeOrderWithAttachment(5, attachment))
                .isInstanceOf(org.springframework.jms.TransactionRolledBackException.class)
                .hasMessageContaining("could not all be stored");
        assertThat(orders.orderCount(5)).as("the database rolled back").isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM wharf_tx_log", Long.class))
                .as("no log row vouches for the transaction").isEqualTo(rowsBefore);
        assertThat(stats.rolledBack()).isGreaterThan(rolledBackBefore);

        awaitMarker(50);
        assertThat(listeners.bodies("orders")).doesNotContain("order 5");
    }

    @Test
    void aJvmKilledAfterTheDatabaseCommitHasItsMessageDeliveredByCheckBack() throws Exception {
        long commitsBefore = stats.checks(TransactionOutcome.COMMIT);
        runChild(3, "after-commit");

        assertThat(orders.orderCount(3)).as("the database committed before the JVM died").isEqualTo(1);
        await().atMost(WAIT).until(() -> listeners.bodies("orders").contains("order 3"));
        assertThat(stats.checks(TransactionOutcome.COMMIT)).as("this application answered the check-back")
                .isGreaterThan(commitsBefore);
    }

    @Test
    void aJvmKilledBeforeTheDatabaseCommitLeavesNothing() throws Exception {
        long rollbacksBefore = stats.checks(TransactionOutcome.ROLLBACK);
        runChild(4, "before-commit");

        assertThat(orders.orderCount(4)).isZero();
        await().atMost(WAIT).until(() -> stats.checks(TransactionOutcome.ROLLBACK) > rollbacksBefore);
        awaitMarker(40);
        assertThat(listeners.bodies("orders")).doesNotContain("order 4");
    }

    /** Places an order that commits and waits for its message: what was not delivered before will not be. */
    private void awaitMarker(long id) {
        orders.placeOrder(id, "marker", false);
        await().atMost(WAIT).until(() -> listeners.bodies("orders").contains("order " + id));
    }

    /** Runs the shop in a child JVM that places order {@code id} and halts at {@code point} of its transaction. */
    private void runChild(long id, String point) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), ShopChildMain.class.getName(),
                Long.toString(id),
                "--wharf.url=wharf://" + server().namesrvAddr(),
                "--wharf.producer-group=shop-producer",
                "--spring.datasource.url=" + databaseUrl(),
                "--spring.sql.init.mode=always",
                "--spring.jms.listener.auto-startup=false",
                "--spring.main.banner-mode=off",
                "--logging.level.root=WARN",
                "--shop.halt=" + point)
                .redirectErrorStream(true);
        Process child = builder.start();
        List<String> output = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.add(line);
                }
            } catch (java.io.IOException e) {
                // the child is gone
            }
        }, "shop-child-output");
        reader.start();
        try {
            assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("the child finished").isTrue();
        } finally {
            child.destroyForcibly();
            reader.join(5_000);
        }
        assertThat(child.exitValue()).as("the child halted itself: %s", output).isEqualTo(HaltSwitch.HALTED);
        assertThat(output).contains("HALT " + point + " " + id);
    }
}
