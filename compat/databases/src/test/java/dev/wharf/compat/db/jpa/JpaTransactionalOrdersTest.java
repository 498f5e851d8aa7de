package dev.wharf.compat.db.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.compat.db.RealDatabase;
import dev.wharf.jms.spi.TransactionOutcome;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import dev.wharf.spring.boot.transaction.TransactionStats;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The transactional order flow on Spring Data JPA (Hibernate, {@code JpaTransactionManager}) and a real database:
 * the order entity, its {@code wharf_tx_log} row and the message commit together; a rollback sends nothing; and when
 * the sending JVM dies between the database commit and the message commit, this application (another instance of the
 * same producer group) answers the broker's check-back from the database, so the message is delivered.
 */
@SpringBootTest(classes = JpaShopApplication.class, properties = {
        "wharf.producer-group=jpa-shop",
        "wharf.transaction.rollback-after=2s",
        "spring.jpa.hibernate.ddl-auto=update",
        "spring.jpa.open-in-view=false"})
@DirtiesContext // the database and the broker end with the class: so does the application
abstract class JpaTransactionalOrdersTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static Path dir;
    private static EmbeddedWharfBroker server;
    private static RealDatabase database;

    /** Starts the database and the broker of the test class (once) and points the application at them. */
    static void startAll(RealDatabase.Kind kind, DynamicPropertyRegistry registry) throws Exception {
        dir = Files.createTempDirectory("wharf-jpa-");
        database = RealDatabase.start(kind);
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(dir.resolve("broker").toString());
        s.store().setMappedFileSizeCommitLog(16 * 1024 * 1024);
        s.store().setMaxHashSlotNum(2_000);
        s.store().setMaxIndexNum(20_000);
        s.netty().setListenPort(0);
        s.netty().setSelectorThreads(1);
        s.broker().executors().setSendMessageThreadPoolNums(2);
        s.broker().executors().setPullMessageThreadPoolNums(2);
        // ask back every 500 ms about transactions older than 300 ms
        s.broker().transaction().setTransactionCheckInterval(500);
        s.broker().transaction().setTransactionTimeOut(300);
        server = EmbeddedWharfBroker.start(s, 0);
        registry.add("wharf.url", () -> "wharf://" + server.namesrvAddr());
        registry.add("spring.datasource.url", database::jdbcUrl);
        registry.add("spring.datasource.username", database::user);
    }

    @AfterAll
    static void stopAll() throws Exception {
        if (server != null) {
            server.stop();
            server = null;
        }
        if (database != null) {
            database.close();
            database = null;
        }
    }

    @Autowired
    JpaOrderService orders;
    @Autowired
    JpaOrderListener listener;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    TransactionStats stats;
    @Autowired
    PlatformTransactionManager transactionManager;

    @Test
    void aJpaCommitDeliversTheMessageAndRecordsTheTransaction() {
        assertThat(transactionManager).isInstanceOf(JpaTransactionManager.class);
        orders.placeOrder(1, "book", false);

        await().atMost(WAIT).until(() -> listener.bodies().contains("order 1"));
        assertThat(orders.exists(1)).isTrue();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM wharf_tx_log WHERE producer_group = 'jpa-shop'",
                Long.class)).as("the transaction id was recorded in the JPA transaction").isGreaterThanOrEqualTo(1);
    }

    @Test
    void aJpaRollbackSendsNothing() {
        long recordedBefore = stats.recorded();
        assertThatThrownBy(() -> orders.placeOrder(2, "lamp", true)).hasMessageContaining("payment declined");
        assertThat(stats.recorded()).as("the message was sent in the transaction").isGreaterThan(recordedBefore);

        orders.placeOrder(20, "marker", false);
        await().atMost(WAIT).until(() -> listener.bodies().contains("order 20"));
        assertThat(listener.bodies()).doesNotContain("order 2");
        assertThat(orders.exists(2)).isFalse();
    }

    @Test
    void aJvmKilledAfterTheDatabaseCommitHasItsMessageDeliveredByCheckBack() throws Exception {
        long commitsBefore = stats.checks(TransactionOutcome.COMMIT);
        runChild(3);

        assertThat(orders.exists(3)).as("the database committed before the JVM died").isTrue();
        await().atMost(WAIT).until(() -> listener.bodies().contains("order 3"));
        assertThat(stats.checks(TransactionOutcome.COMMIT)).as("this instance answered the check-back")
                .isGreaterThan(commitsBefore);
    }

    /** Runs the shop in a child JVM that places order {@code id} and halts after the database commit. */
    private void runChild(long id) throws Exception {
        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), JpaShopChildMain.class.getName(),
                Long.toString(id),
                "--wharf.url=wharf://" + server.namesrvAddr(),
                "--wharf.producer-group=jpa-shop",
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.user(),
                "--spring.jpa.hibernate.ddl-auto=none",
                "--spring.jms.listener.auto-startup=false",
                "--spring.main.banner-mode=off",
                "--logging.level.root=WARN",
                "--shop.halt=after-commit")
                .redirectErrorStream(true).start();
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
        }, "jpa-shop-child-output");
        reader.start();
        try {
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child finished").isTrue();
        } finally {
            child.destroyForcibly();
            reader.join(5_000);
        }
        assertThat(child.exitValue()).as("the child halted itself: %s", output).isEqualTo(JpaHaltSwitch.HALTED);
        assertThat(output).contains("HALT after-commit " + id);
    }
}
