package dev.wharf.samples.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** Runs the order sample as its README does: on the embedded broker, and against a broker of its own. */
@ExtendWith(OutputCaptureExtension.class)
class OrderSampleTest {

    @TempDir
    Path dir;

    @Test
    void aRunOnTheEmbeddedBrokerSettlesEveryOrderAndPrintsTheSummary(CapturedOutput output) throws Exception {
        ConfigurableApplicationContext context = SpringApplication.run(OrderSampleApplication.class,
                SampleArgs.of(dir, "--order.orders=20", "--order.payment-window=4s"));
        RunSummary summary = context.getBean(SampleRunner.class).summary();
        assertThat(SpringApplication.exit(context)).as("exit code").isZero();

        assertThat(summary.run()).isEqualTo(1);
        assertThat(summary.placed()).hasSize(20);
        assertThat(summary.carriedOver()).isEmpty();
        assertThat(summary.ids(OrderStatus.PAYMENT_FAILED)).as("every 7th: failed, retried, dead-lettered")
                .containsExactly(1007L, 1014L);
        assertThat(summary.ids(OrderStatus.CANCELLED)).as("every 5th: never paid, cancelled by its timeout")
                .containsExactly(1005L, 1010L, 1015L, 1020L);
        assertThat(summary.count(OrderStatus.PAID)).isEqualTo(14);
        assertThat(summary.open()).isEmpty();
        assertThat(summary.recovered()).isEmpty();
        assertThat(summary.broker()).contains("embedded broker").contains(dir.resolve("store").toString());

        assertThat(output.getOut()).contains("Order sample, run 1, on the embedded broker")
                .containsPattern("paid\\s+14\\n")
                .containsPattern("cancelled \\(unpaid after 4 s\\)\\s+4\\s+#1005 #1010 #1015 #1020")
                .containsPattern("dead-lettered \\(payment failed\\)\\s+2\\s+#1007 #1014")
                .containsPattern("recovered by check-back\\s+0")
                .contains("All 20 orders settled in");
        assertStockBalances(dir, 0);
    }

    @Test
    void aRunAgainstABrokerOfItsOwnWorksTheSameWay(@TempDir Path brokerDir) throws Exception {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(brokerDir.toString());
        s.store().setMappedFileSizeCommitLog(16 * 1024 * 1024);
        s.store().setMaxHashSlotNum(2_000);
        s.store().setMaxIndexNum(20_000);
        s.netty().setListenPort(0);
        s.netty().setSelectorThreads(1);
        EmbeddedWharfBroker server = EmbeddedWharfBroker.start(s, 0);
        try {
            String url = "wharf://" + server.namesrvAddr();
            ConfigurableApplicationContext context = SpringApplication.run(OrderSampleApplication.class,
                    SampleArgs.of(dir, "--wharf.url=" + url, "--order.orders=10", "--order.payment-window=4s"));
            RunSummary summary = context.getBean(SampleRunner.class).summary();
            assertThat(SpringApplication.exit(context)).as("exit code").isZero();

            assertThat(summary.broker()).isEqualTo("the broker at " + url);
            assertThat(summary.count(OrderStatus.PAID)).isEqualTo(7);
            assertThat(summary.ids(OrderStatus.CANCELLED)).containsExactly(1005L, 1010L);
            assertThat(summary.ids(OrderStatus.PAYMENT_FAILED)).containsExactly(1007L);
            assertThat(summary.open()).isEmpty();
        } finally {
            server.stop();
        }
    }

    @Test
    void aBadCrashSwitchValueNamesThePropertyAndTheFix() {
        assertThatThrownBy(() -> SpringApplication.run(OrderSampleApplication.class,
                SampleArgs.of(dir, "--order.orders=5", "--order.crash-after-commit=9")))
                .rootCause().isInstanceOf(InvalidConfigurationPropertyValueException.class)
                .hasMessageContaining("order.crash-after-commit")
                .hasMessageContaining("from 1 to order.orders (5)");
    }

    @Test
    void aBadOrderCountNamesThePropertyAndWhatIsAllowed() {
        for (String bad : new String[] {"0", "-5", "1000001"}) {
            assertThatThrownBy(() -> SpringApplication.run(OrderSampleApplication.class,
                    SampleArgs.of(dir, "--order.orders=" + bad)))
                    .as("order.orders=%s", bad)
                    .rootCause().isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("order.orders")
                    .hasMessageContaining("from 1 to 1,000,000");
        }
    }

    /** Every unit of stock is available or sold, none left reserved; {@code sold} matches the paid orders. */
    static void assertStockBalances(Path dir, int reservedExpected) throws Exception {
        try (Connection c = DriverManager.getConnection(SampleArgs.databaseUrl(dir));
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT SUM(available + reserved + sold), SUM(reserved), SUM(sold),"
                     + " (SELECT SUM(quantity) FROM orders WHERE status = 'PAID') FROM stock")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).as("units in total").isEqualTo(300_000);
            assertThat(rs.getLong(2)).as("units still reserved").isEqualTo(reservedExpected);
            assertThat(rs.getLong(3)).as("units sold = units of the paid orders").isEqualTo(rs.getLong(4));
        }
    }
}
