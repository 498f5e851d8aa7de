package dev.wharf.client.route;

import dev.wharf.common.message.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which broker of a group a consumer reads a queue from. In order: the broker the last pull response suggested
 * (RocketMQ's suggestWhichBrokerId: a master steers lagging reads to a slave, a slave steers reads back to the
 * master), then the master, then the slaves by id; a broker whose last call failed is passed over for
 * {@code failedMillis} unless every one has failed. So reads go to a slave as soon as the route loses the master
 * or the master stops answering, and back to the master once the route shows it again and the slave says so.
 * Thread-safe; no I/O.
 */
public final class ReadSelector {

    /** brokerId of a master. */
    public static final long MASTER_ID = 0L;

    private final Map<MessageQueue, Long> suggested = new ConcurrentHashMap<>();
    private final Map<String, Long> failedUntil = new ConcurrentHashMap<>();
    private final long failedMillis;
    private final LongSupplier clock;

    public ReadSelector(long failedMillis) {
        this(failedMillis, System::currentTimeMillis);
    }

    public ReadSelector(long failedMillis, LongSupplier clock) {
        this.failedMillis = failedMillis;
        this.clock = clock;
    }

    /** Records the broker a pull response suggested for the queue's next pull. */
    public void suggest(MessageQueue mq, long brokerId) {
        if (brokerId == MASTER_ID) {
            if (!suggested.isEmpty()) { // the usual answer: no write per pull
                suggested.remove(mq);
            }
        } else {
            suggested.put(mq, brokerId);
        }
    }

    /** The broker id suggested for the queue (the master's when none). */
    public long suggestion(MessageQueue mq) {
        return suggested.getOrDefault(mq, MASTER_ID);
    }

    /** A call to {@code address} failed: prefer other brokers of its group for a while. */
    public void failed(String address) {
        failedUntil.put(address, clock.getAsLong() + failedMillis);
    }

    /** A call to {@code address} succeeded. */
    public void succeeded(String address) {
        if (!failedUntil.isEmpty()) {
            failedUntil.remove(address);
        }
    }

    public boolean isFailing(String address) {
        Long until = failedUntil.get(address);
        if (until == null) {
            return false;
        }
        if (clock.getAsLong() >= until) {
            failedUntil.remove(address, until);
            return false;
        }
        return true;
    }

    /**
     * The address to read {@code mq} from among its group's brokers (brokerId to address), or null when the
     * group has none.
     */
    public String choose(MessageQueue mq, Map<Long, String> group) {
        if (group == null || group.isEmpty()) {
            return null;
        }
        List<String> order = new ArrayList<>(group.size() + 1);
        String preferred = group.get(suggestion(mq));
        if (preferred != null) {
            order.add(preferred);
        }
        for (String address : new TreeMap<>(group).values()) { // the master (id 0) first, then slaves by id
            if (!order.contains(address)) {
                order.add(address);
            }
        }
        for (String address : order) {
            if (!isFailing(address)) {
                return address;
            }
        }
        return order.get(0);
    }
}
