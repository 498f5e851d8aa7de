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

    private final int number;
    private final List<Long> openFromEarlierRuns;

    public SampleRun(OrderRepository orders) {
        this.openFromEarlierRuns = List.copyOf(orders.openOrderIds());
        this.number = orders.startRun();
    }

    /** 1 for the first run on this database, then 2, 3, ... */
    public int number() {
        return number;
    }

    /** Orders earlier runs left open (PLACED or RESERVED) when this run started. */
    public List<Long> openFromEarlierRuns() {
        return openFromEarlierRuns;
    }
}
