package dev.wharf.broker.ack.state;

import java.util.Arrays;

/**
 * Which queue offsets are done, as a floor plus bits: every offset below {@link #floor()} is done, and above
 * it one bit per offset says whether it is. Marking the floor done moves the floor up over every consecutive
 * done offset (a word at a time), and whole words below the floor are dropped, so the memory held is one bit
 * per offset between the floor and the highest done offset: 1.25 MB per ten million offsets when the floor is
 * stuck on one message.
 *
 * <p>Layout: {@code words[head]} holds offsets {@code wordBase .. wordBase + 63} (bit i = offset wordBase + i),
 * the following words the next 64 each; the floor always lies in {@code words[head]}. Dropped words are
 * reclaimed by shifting the array down once the head passes its middle, so a floor moving one word at a time
 * costs amortised O(1). Not thread-safe.
 */
public final class OffsetBitSet {

    private static final int INITIAL_WORDS = 4;

    private long floor;
    private long wordBase;
    private long[] words = new long[INITIAL_WORDS];
    private int head;

    /** A set whose floor is {@code floor}: every offset below it done, none above. */
    public OffsetBitSet(long floor) {
        reset(floor);
    }

    /** Forgets every mark: offsets below {@code floor} are done, none above. */
    public void reset(long floor) {
        this.floor = floor;
        this.wordBase = floor & ~63L;
        this.head = 0;
        if (words.length > INITIAL_WORDS * 4) {
            words = new long[INITIAL_WORDS];
        } else {
            Arrays.fill(words, 0L);
        }
    }

    /** The lowest offset not done; every offset below it is done. */
    public long floor() {
        return floor;
    }

    public boolean isDone(long offset) {
        if (offset < floor) {
            return true;
        }
        long index = head + ((offset - wordBase) >>> 6);
        return index < words.length && (words[(int) index] & (1L << (offset & 63))) != 0;
    }

    /**
     * Marks one offset done.
     *
     * @return whether it was not done before
     */
    public boolean markDone(long offset) {
        if (offset < floor) {
            return false;
        }
        int index = wordIndex(offset);
        long bit = 1L << (offset & 63);
        if ((words[index] & bit) != 0) {
            return false;
        }
        words[index] |= bit;
        if (offset == floor) {
            advance();
        }
        return true;
    }

    /**
     * Marks every offset below {@code offset} done (messages the store no longer holds).
     *
     * @return whether the floor moved
     */
    public boolean markDoneBelow(long offset) {
        if (offset <= floor) {
            return false;
        }
        long span = (long) (words.length - head) << 6;
        if (offset - wordBase >= span) {
            reset(offset);
            return true;
        }
        while (offset - wordBase >= 64) {
            words[head] = 0L;
            head++;
            wordBase += 64;
        }
        floor = offset;
        advance();
        compactIfSparse();
        return true;
    }

    /** Done offsets at or above the floor. */
    public long countDoneAboveFloor() {
        long count = 0;
        for (int i = head; i < words.length; i++) {
            count += Long.bitCount(words[i]);
        }
        int bit = (int) (floor - wordBase);
        if (bit > 0) {
            count -= Long.bitCount(words[head] & ((1L << bit) - 1));
        }
        return count;
    }

    /** The highest done offset at or above the floor, or floor - 1 when there is none. */
    public long highestDone() {
        for (int i = words.length - 1; i >= head; i--) {
            if (words[i] != 0) {
                long candidate = wordBase + ((long) (i - head) << 6) + 63 - Long.numberOfLeadingZeros(words[i]);
                return candidate >= floor ? candidate : floor - 1;
            }
        }
        return floor - 1;
    }

    /** The offset of bit 0 of {@link #exportWords()}. */
    public long wordBase() {
        return wordBase;
    }

    /**
     * The marks at and above the floor: words from the floor's word up to the last non-empty one (a copy;
     * empty when nothing above the floor is marked).
     */
    public long[] exportWords() {
        long belowFloor = (1L << (floor - wordBase)) - 1;
        int last = words.length - 1;
        while (last >= head && (last == head ? words[last] & ~belowFloor : words[last]) == 0) {
            last--;
        }
        if (last < head) {
            return new long[0];
        }
        long[] out = Arrays.copyOfRange(words, head, last + 1);
        out[0] &= ~belowFloor;
        return out;
    }

    /**
     * Restores a state saved with {@link #floor()}, {@link #wordBase()} and {@link #exportWords()}.
     *
     * @throws IllegalArgumentException when the parts do not fit together
     */
    public void restore(long floor, long wordBase, long[] marks) {
        if ((wordBase & 63) != 0 || floor < wordBase || floor - wordBase >= 64 && marks.length > 0) {
            throw new IllegalArgumentException("done marks with floor " + floor + " and word base " + wordBase
                    + " do not fit together");
        }
        reset(floor);
        if (marks.length == 0) {
            return;
        }
        this.wordBase = wordBase;
        this.words = Arrays.copyOf(marks, Math.max(INITIAL_WORDS, marks.length * 2));
        this.head = 0;
        advance();
    }

    private int wordIndex(long offset) {
        long index = head + ((offset - wordBase) >>> 6);
        if (index >= words.length) {
            compact();
            index = (offset - wordBase) >>> 6;
            if (index >= Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("offset " + offset + " is too far above the floor " + floor);
            }
            if (index >= words.length) {
                long grown = Math.max(index + 1, words.length * 2L);
                words = Arrays.copyOf(words, (int) Math.min(Integer.MAX_VALUE - 8, grown));
            }
        }
        return (int) index;
    }

    /** Moves the floor up over consecutive done offsets. */
    private void advance() {
        while (true) {
            int bit = (int) (floor - wordBase);
            long notDone = ~words[head] >>> bit;
            if (notDone != 0) {
                floor += Long.numberOfTrailingZeros(notDone);
                break;
            }
            words[head] = 0L;
            head++;
            wordBase += 64;
            floor = wordBase;
            if (head == words.length) {
                head = 0; // every word was consumed, so all are zero again
                break;
            }
        }
        compactIfSparse();
    }

    private void compactIfSparse() {
        if (head > 0 && head >= words.length / 2) {
            compact();
        }
    }

    private void compact() {
        if (head == 0) {
            return;
        }
        int live = words.length - head;
        System.arraycopy(words, head, words, 0, live);
        Arrays.fill(words, live, words.length, 0L);
        head = 0;
    }
}
