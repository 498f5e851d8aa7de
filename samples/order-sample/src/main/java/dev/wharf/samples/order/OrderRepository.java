package dev.wharf.samples.order;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/**
 * The orders and the stock, in plain JDBC. Every change of status is a conditional update from the status it
 * expects, so that a message delivered twice (a redelivery after a crash, a timeout after the payment) changes
 * nothing the second time; each returns whether it changed the order.
 */
@Repository
public class OrderRepository {

    private static final RowMapper<Order> ORDER = (rs, n) -> new Order(rs.getLong("id"), rs.getInt("run"),
            rs.getInt("seq"), rs.getString("item"), rs.getInt("quantity"), rs.getLong("amount_cents"),
            OrderStatus.valueOf(rs.getString("status")), rs.getBoolean("killed_after_commit"));

    private final JdbcTemplate jdbc;

    public OrderRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void insert(Order order) {
        jdbc.update("INSERT INTO orders (id, run, seq, item, quantity, amount_cents, status, placed_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", order.id(), order.run(), order.seq(), order.item(),
                order.quantity(), order.amountCents(), order.status().name(), Timestamp.from(Instant.now()));
    }

    Optional<Order> find(long id) {
        return jdbc.query("SELECT * FROM orders WHERE id = ?", ORDER, id).stream().findFirst();
    }

    void markKilledAfterCommit(long id) {
        jdbc.update("UPDATE orders SET killed_after_commit = TRUE WHERE id = ?", id);
    }

    /** Notes that this run received the message of an order whose JVM was killed after its commit. */
    boolean markRecovered(long id, int run) {
        return jdbc.update("UPDATE orders SET recovered_in_run = ? WHERE id = ? AND killed_after_commit"
                + " AND recovered_in_run IS NULL", run, id) == 1;
    }

    /** PLACED → RESERVED, taking the stock; PLACED → REJECTED when there is not enough. */
    boolean reserve(Order order) {
        int taken = jdbc.update("UPDATE stock SET available = available - ?, reserved = reserved + ?"
                + " WHERE item = ? AND available >= ?", order.quantity(), order.quantity(), order.item(),
                order.quantity());
        if (taken == 0) {
            return false;
        }
        return move(order.id(), OrderStatus.PLACED, OrderStatus.RESERVED, null);
    }

    boolean reject(Order order, int run) {
        return move(order.id(), OrderStatus.PLACED, OrderStatus.REJECTED, run);
    }

    /** RESERVED → PAID: the reserved stock is sold. */
    boolean pay(Order order, int run) {
        if (!move(order.id(), OrderStatus.RESERVED, OrderStatus.PAID, run)) {
            return false;
        }
        jdbc.update("UPDATE stock SET reserved = reserved - ?, sold = sold + ? WHERE item = ?", order.quantity(),
                order.quantity(), order.item());
        return true;
    }

    /** RESERVED → CANCELLED or PAYMENT_FAILED: the reserved stock is available again. */
    boolean release(Order order, OrderStatus to, int run) {
        if (!move(order.id(), OrderStatus.RESERVED, to, run)) {
            return false;
        }
        jdbc.update("UPDATE stock SET reserved = reserved - ?, available = available + ? WHERE item = ?",
                order.quantity(), order.quantity(), order.item());
        return true;
    }

    private boolean move(long id, OrderStatus from, OrderStatus to, Integer settledInRun) {
        return jdbc.update("UPDATE orders SET status = ?, settled_in_run = ? WHERE id = ? AND status = ?", to.name(),
                settledInRun, id, from.name()) == 1;
    }

    /** Ids of the orders still open (PLACED or RESERVED), of any run. */
    List<Long> openOrderIds() {
        return jdbc.queryForList("SELECT id FROM orders WHERE status IN ('PLACED', 'RESERVED') ORDER BY id",
                Long.class);
    }

    /** Ids of the orders placed by a run. */
    List<Long> idsOfRun(int run) {
        return jdbc.queryForList("SELECT id FROM orders WHERE run = ? ORDER BY id", Long.class, run);
    }

    /** The ids among {@code ids} by status, in id order. */
    Map<OrderStatus, List<Long>> statusOf(List<Long> ids) {
        Map<OrderStatus, List<Long>> out = emptyByStatus();
        if (ids.isEmpty()) {
            return out;
        }
        String in = ids.stream().map(id -> "?").collect(Collectors.joining(","));
        jdbc.query("SELECT id, status FROM orders WHERE id IN (" + in + ") ORDER BY id", rs -> {
            out.get(OrderStatus.valueOf(rs.getString("status"))).add(rs.getLong("id"));
        }, ids.toArray());
        return out;
    }

    /** The orders of a run by status, in id order. */
    Map<OrderStatus, List<Long>> statusOfRun(int run) {
        Map<OrderStatus, List<Long>> out = emptyByStatus();
        jdbc.query("SELECT id, status FROM orders WHERE run = ? ORDER BY id", rs -> {
            out.get(OrderStatus.valueOf(rs.getString("status"))).add(rs.getLong("id"));
        }, run);
        return out;
    }

    private static Map<OrderStatus, List<Long>> emptyByStatus() {
        Map<OrderStatus, List<Long>> out = new EnumMap<>(OrderStatus.class);
        for (OrderStatus s : OrderStatus.values()) {
            out.put(s, new ArrayList<>());
        }
        return out;
    }

    /** How many orders of a run, and of {@code more}, are still open (PLACED or RESERVED). */
    int countOpen(int run, List<Long> more) {
        StringBuilder sql = new StringBuilder("SELECT COUNT(*) FROM orders WHERE status IN ('PLACED', 'RESERVED')"
                + " AND (run = ?");
        List<Object> args = new ArrayList<>();
        args.add(run);
        if (!more.isEmpty()) {
            sql.append(" OR id IN (").append(more.stream().map(id -> "?").collect(Collectors.joining(",")))
                    .append(')');
            args.addAll(more);
        }
        sql.append(')');
        Integer n = jdbc.queryForObject(sql.toString(), Integer.class, args.toArray());
        return n == null ? 0 : n;
    }

    /** Ids of the orders whose message was delivered in {@code run} after their JVM had been killed. */
    List<Long> recoveredIn(int run) {
        return jdbc.queryForList("SELECT id FROM orders WHERE recovered_in_run = ? ORDER BY id", Long.class, run);
    }

    /** A run as started: its number and the digits of the order's number in its order ids. */
    record StartedRun(int number, int seqDigits) {
    }

    /**
     * Starts a run: its number, 1 for the first run on this database. Numbered by hand rather than by an identity
     * column, whose cached values H2 skips after a crash (run 2 would be followed by run 34). Its order numbers get
     * {@code seqDigitsNeeded} digits, or as many as the run before had if that is more: the ids of a run then lie
     * above those of every earlier run.
     */
    StartedRun startRun(int seqDigitsNeeded) {
        Map<String, Object> last = jdbc.queryForMap("SELECT MAX(id) AS last_run, MAX(seq_digits) AS digits"
                + " FROM sample_run");
        Number lastRun = (Number) last.get("last_run");
        Number lastDigits = (Number) last.get("digits");
        int run = lastRun == null ? 1 : lastRun.intValue() + 1;
        int digits = lastDigits == null ? seqDigitsNeeded : Math.max(seqDigitsNeeded, lastDigits.intValue());
        jdbc.update("INSERT INTO sample_run (id, started_at, seq_digits) VALUES (?, ?, ?)", run,
                Timestamp.from(Instant.now()), digits);
        return new StartedRun(run, digits);
    }
}
