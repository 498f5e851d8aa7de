package dev.wharf.store.index;

import java.util.List;

/**
 * The answer of {@link IndexService#queryOffset}: commit-log offsets of messages whose key may match, newest
 * first. Keys are matched by hash, so the caller reads each message and keeps those whose key really matches.
 *
 * @param phyOffsets                commit-log offsets, newest first
 * @param indexLastUpdateTimestamp  store time of the newest entry in the index (0 when empty)
 * @param indexLastUpdatePhyoffset  commit-log offset of the newest entry in the index (0 when empty)
 */
public record QueryOffsetResult(List<Long> phyOffsets, long indexLastUpdateTimestamp, long indexLastUpdatePhyoffset) {

    public QueryOffsetResult {
        phyOffsets = List.copyOf(phyOffsets);
    }
}
