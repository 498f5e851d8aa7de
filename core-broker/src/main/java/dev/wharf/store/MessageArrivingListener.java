package dev.wharf.store;

import java.util.Map;

/**
 * Told by the dispatcher, on its thread, right after a message's consume-queue unit is written (long polling
 * wakes waiting pulls on it). Must be cheap and must not block.
 */
@FunctionalInterface
public interface MessageArrivingListener {

    void arriving(String topic, int queueId, long logicOffset, long tagsCode, long storeTimestamp,
            Map<String, String> properties);
}
