package dev.wharf.store;

import java.util.concurrent.CompletableFuture;

/**
 * What replication asks of the put path, without the store knowing how bytes reach other replicas: a gate
 * before a put is appended, and a wait after it. Installed on a {@link ReplicableStore} before it starts;
 * both methods are called on the putting thread and must not block.
 */
public interface PutReplication {

    /**
     * Whether a put may be appended at all.
     *
     * @return null to go on, or the refusal to answer (e.g. a slave refuses every put)
     */
    PutMessageResult admit();

    /**
     * Waits (asynchronously) until enough replicas hold every byte below {@code nextOffset}. Called after the
     * append (and after the disk, with SYNC_FLUSH) for puts that wait for their store result.
     *
     * @return completes, never exceptionally, with a result of status {@link PutMessageStatus#PUT_OK} when
     *         replicated, or {@link PutMessageStatus#SLAVE_NOT_AVAILABLE} /
     *         {@link PutMessageStatus#FLUSH_SLAVE_TIMEOUT} and a sentence saying why (no append result)
     */
    CompletableFuture<PutMessageResult> replicate(long nextOffset);
}
