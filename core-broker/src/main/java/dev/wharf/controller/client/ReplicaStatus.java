package dev.wharf.controller.client;

/**
 * What a heartbeat reports about the broker's data, asked at every heartbeat: the election prefers the replica with
 * the highest last epoch, then the highest max offset. Must be cheap and thread-safe.
 */
public interface ReplicaStatus {

    /** A replica with no data yet. */
    ReplicaStatus EMPTY = new ReplicaStatus() {
        @Override
        public int lastEpoch() {
            return 0;
        }

        @Override
        public long maxOffset() {
            return 0;
        }

        @Override
        public long confirmOffset() {
            return 0;
        }
    };

    /** The epoch of the last entry of the broker's epoch file (0 before any). */
    int lastEpoch();

    /** The commit log's max offset. */
    long maxOffset();

    /** The offset up to which the in-sync replicas have acknowledged. */
    long confirmOffset();
}
