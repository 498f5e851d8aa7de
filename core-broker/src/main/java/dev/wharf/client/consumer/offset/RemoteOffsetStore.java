package dev.wharf.client.consumer.offset;

import dev.wharf.client.ClientException;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.impl.OffsetApi;
import dev.wharf.common.message.MessageQueue;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Offsets of a clustering group, committed to the broker that holds each queue: its master, or while the route
 * has no master, a slave of the group (which keeps the offset and hands it back to the master when it returns).
 * An offset is committed again whenever the address it goes to changes, so the master gets the offsets committed
 * to a slave meanwhile as soon as it is back. Thread-safe.
 */
public final class RemoteOffsetStore implements OffsetStore {

    private static final Logger log = LoggerFactory.getLogger(RemoteOffsetStore.class);

    private final ClientInstance instance;
    private final String group;
    private final OffsetTable offsets = new OffsetTable();
    private final Map<MessageQueue, Committed> persisted = new ConcurrentHashMap<>();

    /** The last offset committed for a queue and the broker it went to (null: read from a broker, not sent). */
    private record Committed(long offset, String address) {
    }

    public RemoteOffsetStore(ClientInstance instance, String group) {
        this.instance = instance;
        this.group = group;
    }

    @Override
    public void load() {
        // offsets live on the brokers
    }

    @Override
    public void updateOffset(MessageQueue mq, long offset, boolean increaseOnly) {
        offsets.update(mq, offset, increaseOnly);
    }

    @Override
    public long readOffset(MessageQueue mq, ReadOffsetType type) throws ClientException, InterruptedException {
        if (type != ReadOffsetType.READ_FROM_STORE) {
            Long held = offsets.offset(mq);
            if (held != null || type == ReadOffsetType.READ_FROM_MEMORY) {
                return held == null ? NO_OFFSET : held;
            }
        }
        String address = instance.requireOffsetAddress(mq.brokerName(), mq.topic());
        long offset = instance.offsetApi().queryConsumerOffset(address, group, mq.topic(), mq.queueId(),
                instance.apiTimeoutMillis());
        if (offset == OffsetApi.NO_OFFSET) {
            return NO_OFFSET;
        }
        updateOffset(mq, offset, false);
        persisted.put(mq, new Committed(offset, address));
        return offset;
    }

    @Override
    public void persistAll(Set<MessageQueue> mqs) {
        for (MessageQueue mq : mqs) {
            try {
                persist(mq);
            } catch (ClientException e) {
                log.warn("Group {}: committing the offset of {} failed: {}", group, mq, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void persist(MessageQueue mq) throws ClientException, InterruptedException {
        Long held = offsets.offset(mq);
        if (held == null) {
            return;
        }
        long offset = held;
        String address = instance.requireOffsetAddress(mq.brokerName(), mq.topic());
        Committed last = persisted.get(mq);
        if (last != null && last.offset() == offset && address.equals(last.address())) {
            return;
        }
        instance.offsetApi().updateConsumerOffset(address, group, mq.topic(), mq.queueId(), offset,
                instance.apiTimeoutMillis());
        persisted.put(mq, new Committed(offset, address));
    }

    @Override
    public void removeOffset(MessageQueue mq) {
        offsets.remove(mq);
        persisted.remove(mq);
    }

    @Override
    public Set<MessageQueue> queues() {
        return offsets.queues();
    }
}
