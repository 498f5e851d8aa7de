package dev.wharf.broker.ack.state;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per selector, how far pops of one queue have looked: every message between the queue's ack floor and the
 * position that is neither done nor leased is known not to match that selector, so the next pop with it
 * starts at the position instead of re-evaluating them. A message that becomes available again below a
 * position (a lease that expired or was given back) lowers every position to it.
 *
 * <p>At most {@link #MAX_SELECTORS} selectors are remembered, least recently used dropped first; a dropped
 * selector only costs its next pop a scan from the floor. Not thread-safe (guarded by the queue's lock).
 */
public final class ScanPositions {

    public static final int MAX_SELECTORS = 32;

    private final Map<String, long[]> positions = new LinkedHashMap<>(8, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, long[]> eldest) {
            return size() > MAX_SELECTORS;
        }
    };

    /** Where a pop with this selector starts: its position, but never below {@code floor}. */
    public long start(String selectorKey, long floor) {
        long[] position = positions.get(selectorKey);
        return position == null ? floor : Math.max(position[0], floor);
    }

    public void set(String selectorKey, long position) {
        long[] existing = positions.get(selectorKey);
        if (existing == null) {
            positions.put(selectorKey, new long[] {position});
        } else {
            existing[0] = position;
        }
    }

    /** A message at {@code offset} is available again: no selector may have looked past it. */
    public void lowerTo(long offset) {
        for (long[] position : positions.values()) {
            if (position[0] > offset) {
                position[0] = offset;
            }
        }
    }

    public void clear() {
        positions.clear();
    }

    public int size() {
        return positions.size();
    }
}
