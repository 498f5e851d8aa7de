package dev.wharf.samples.order;

import java.util.List;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.stereotype.Component;

/**
 * This run of the sample: its number, and the orders earlier runs left open. Made when the application starts,
 * after the schema and before the listeners, so that the listeners can note in which run they settle an order and
 * the snapshot of open orders is taken before any of them changes.
 */
@Component
@DependsOnDatabaseInitialization
public class SampleRun {

    /** Order numbers have at least this many digits in the ids: #2007 is order 7 of run 2. */
    static final int MIN_SEQ_DIGITS = 3;

    private final int number;
    private final int seqDigits;
    private final List<Long> openFromEarlierRuns;

    public SampleRun(OrderRepository orders, OrderSampleProperties properties) {
        this.openFromEarlierRuns = List.copyOf(orders.openOrderIds());
        OrderRepository.StartedRun started = orders.startRun(Math.max(MIN_SEQ_DIGITS,
                Order.digits(properties.getOrders())));
        this.number = started.number();
        this.seqDigits = started.seqDigits();
    }

    /** 1 for the first run on this database, then 2, 3, ... */
    public int number() {
        return number;
    }

    /**
     * The id of this run's {@code seq}-th order: the run's number followed by {@code seq} written with 3 digits
     * (#2007), or with as many as this run or an earlier one needed for its number of orders (#300007 after a run of
     * 10,000), so that no two runs share an id.
     */
    public long orderId(int seq) {
        return Order.idOf(number, seq, seqDigits);
    }

    /** Orders earlier runs left open (PLACED or RESERVED) when this run started. */
    public List<Long> openFromEarlierRuns() {
        return openFromEarlierRuns;
    }
}
