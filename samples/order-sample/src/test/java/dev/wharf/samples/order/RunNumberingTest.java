package dev.wharf.samples.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * Order ids of runs of different sizes on one database: #2007 stays order 7 of run 2, a run of 10,000 orders gets
 * ids of its own, and no run after it collides with it; a database of earlier versions keeps its numbering.
 */
class RunNumberingTest {

    @TempDir
    Path dir;

    @Test
    void runsOfAnySizeGetIdsAboveEveryEarlierRun() {
        JdbcTemplate jdbc = database();
        OrderRepository orders = new OrderRepository(jdbc);

        SampleRun first = start(orders, 20);
        SampleRun big = start(orders, 10_000);
        SampleRun after = start(orders, 20);

        assertThat(first.number()).isEqualTo(1);
        assertThat(first.orderId(7)).isEqualTo(1007L);
        assertThat(first.orderId(20)).isEqualTo(1020L);
        assertThat(big.orderId(1)).isEqualTo(200_001L);
        assertThat(big.orderId(10_000)).isEqualTo(210_000L);
        assertThat(after.orderId(1)).as("a smaller run after a big one keeps its digits")
                .isEqualTo(300_001L).isGreaterThan(big.orderId(10_000));
        assertThat(start(orders, 999).orderId(999)).isEqualTo(400_999L);
        assertThat(start(orders, 1_000_000).orderId(1_000_000)).isEqualTo(51_000_000L);
    }

    @Test
    void aDatabaseOfEarlierVersionsKeepsItsNumbering() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource());
        jdbc.execute("CREATE TABLE sample_run (id INT PRIMARY KEY, started_at TIMESTAMP NOT NULL)");
        jdbc.update("INSERT INTO sample_run (id, started_at) VALUES (1, CURRENT_TIMESTAMP)");
        populate(jdbc);
        OrderRepository orders = new OrderRepository(jdbc);

        SampleRun second = start(orders, 20);

        assertThat(second.number()).isEqualTo(2);
        assertThat(second.orderId(1)).isEqualTo(2001L);
        assertThat(jdbc.queryForObject("SELECT seq_digits FROM sample_run WHERE id = 1", Integer.class))
                .isEqualTo(3);
    }

    private static SampleRun start(OrderRepository orders, int count) {
        OrderSampleProperties properties = new OrderSampleProperties();
        properties.setOrders(count);
        properties.afterPropertiesSet();
        return new SampleRun(orders, properties);
    }

    private JdbcTemplate database() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource());
        populate(jdbc);
        return jdbc;
    }

    private DriverManagerDataSource dataSource() {
        return new DriverManagerDataSource(SampleArgs.databaseUrl(dir));
    }

    private static void populate(JdbcTemplate jdbc) {
        new ResourceDatabasePopulator(new ClassPathResource("schema.sql")).execute(jdbc.getDataSource());
    }
}
