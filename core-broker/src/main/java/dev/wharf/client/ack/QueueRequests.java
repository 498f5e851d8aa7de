package dev.wharf.client.ack;

import dev.wharf.client.ClientException;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.common.message.MessageExt;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Splits acknowledgements and lease changes into one request per broker, topic, queue and chunk of at most
 * {@link #OFFSETS_PER_REQUEST} offsets (the broker's limit), sent concurrently.
 */
final class QueueRequests {

    /** Most offsets one request carries. */
    static final int OFFSETS_PER_REQUEST = 1024;

    private QueueRequests() {
    }

    static String deliveryCounts(List<? extends MessageExt> batch) {
        StringBuilder sb = new StringBuilder(batch.size() * 2);
        for (MessageExt msg : batch) {
            if (!(msg instanceof PoppedMessage popped)) {
                return null; // no count known: change whatever lease is there
            }
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(popped.deliveryCount());
        }
        return sb.toString();
    }

    record QueueKey(String brokerName, String topic, int queueId) {
    }

    @FunctionalInterface
    interface QueueRequest {
        CompletableFuture<Void> send(String address, QueueKey key, String offsets, List<? extends MessageExt> batch);
    }

    /** One request per broker, topic, queue and chunk of offsets; the future completes when all did. */
    static CompletableFuture<Void> send(ClientInstance current, Collection<? extends MessageExt> msgs,
                                        QueueRequest request) {
        Map<QueueKey, List<MessageExt>> byQueue = new LinkedHashMap<>();
        for (MessageExt msg : msgs) {
            if (msg.getBrokerName() == null) {
                throw new IllegalArgumentException("The message " + msg.getMsgId() + " of topic " + msg.getTopic()
                        + " has no broker name, so it was not handed out by a pop; acknowledge the PoppedMessage"
                        + " objects pop returned.");
            }
            byQueue.computeIfAbsent(new QueueKey(msg.getBrokerName(), msg.getTopic(), msg.getQueueId()),
                    k -> new ArrayList<>()).add(msg);
        }
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (Map.Entry<QueueKey, List<MessageExt>> e : byQueue.entrySet()) {
            QueueKey key = e.getKey();
            String address;
            try {
                address = current.requireMasterAddress(key.brokerName(), key.topic());
            } catch (ClientException ex) {
                sent.add(CompletableFuture.failedFuture(ex));
                continue;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                sent.add(CompletableFuture.failedFuture(ex));
                continue;
            }
            List<MessageExt> all = e.getValue();
            for (int from = 0; from < all.size(); from += OFFSETS_PER_REQUEST) {
                List<MessageExt> batch = all.subList(from, Math.min(all.size(), from + OFFSETS_PER_REQUEST));
                String offsets = batch.stream().map(m -> Long.toString(m.getQueueOffset()))
                        .collect(Collectors.joining(","));
                sent.add(request.send(address, key, offsets, batch));
            }
        }
        return CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0]));
    }
}
