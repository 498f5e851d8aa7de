package dev.wharf.broker.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The timer index against a priority queue as the oracle, on a simulated clock. */
class TimerWheelTest {

    private static final long START = 1_700_000_000_123L;

    private record Entry(long due, long offset) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            return due != o.due ? Long.compare(due, o.due) : Long.compare(offset, o.offset);
        }
    }

    @Test
    void handsOutEveryEntryOnceInDueOrderAndNeverEarly() {
        for (int slots : new int[] {2, 7, 3_600}) {
            Random random = new Random(slots);
            TimerWheel wheel = new TimerWheel(START, slots);
            PriorityQueue<Entry> oracle = new PriorityQueue<>();
            long now = START;
            long offset = 0;
            List<Entry> out = new ArrayList<>();
            for (int step = 0; step < 4_000; step++) {
                int adds = random.nextInt(5);
                for (int i = 0; i < adds; i++) {
                    // mostly near, some far beyond the wheel, some already overdue
                    long delay = switch (random.nextInt(4)) {
                        case 0 -> -random.nextInt(5_000);
                        case 1 -> random.nextInt(2_000);
                        case 2 -> random.nextInt(20_000);
                        default -> random.nextInt(3_000_000);
                    };
                    Entry e = new Entry(now + delay, offset++);
                    wheel.add(e.due, e.offset);
                    oracle.add(e);
                }
                now += random.nextInt(900);
                long at = now;
                int before = out.size();
                wheel.pollDue(now, Integer.MAX_VALUE, (due, off) -> {
                    assertThat(due).as("never handed out before it is due").isLessThanOrEqualTo(at);
                    out.add(new Entry(due, off));
                    return true;
                });
                List<Long> expected = new ArrayList<>();
                while (!oracle.isEmpty() && oracle.peek().due <= now) {
                    expected.add(oracle.poll().offset);
                }
                List<Long> got = out.subList(before, out.size()).stream().map(Entry::offset).sorted().toList();
                assertThat(got).as("slots=%d step=%d", slots, step).isEqualTo(expected.stream().sorted().toList());
                assertThat(wheel.size()).isEqualTo(oracle.size());
                long next = wheel.nextDue(Long.MAX_VALUE);
                if (!oracle.isEmpty()) {
                    assertThat(next).as("next due is never later than the true earliest").isLessThanOrEqualTo(
                            Math.max(oracle.peek().due, now));
                }
            }
            assertThat(out).hasSize((int) offset - oracle.size());
        }
    }

    @Test
    void entriesOfOneSecondComeOutSortedByMillisecond() {
        TimerWheel wheel = new TimerWheel(START, 60);
        long second = (START / 1_000 + 2) * 1_000;
        wheel.add(second + 900, 1);
        wheel.add(second + 5, 2);
        wheel.add(second + 500, 3);
        wheel.add(second + 5, 0);
        List<Long> order = new ArrayList<>();
        List<Long> dues = new ArrayList<>();
        assertThat(wheel.nextDue(Long.MAX_VALUE)).isEqualTo(second + 5);
        wheel.pollDue(second + 600, 10, (due, offset) -> {
            order.add(offset);
            dues.add(due);
            return true;
        });
        assertThat(order).containsExactly(0L, 2L, 3L);
        assertThat(dues).containsExactly(second + 5, second + 5, second + 500);
        assertThat(wheel.nextDue(Long.MAX_VALUE)).isEqualTo(second + 900);
        assertThat(wheel.nextDue(second + 700)).as("capped at the limit").isEqualTo(second + 700);
    }

    @Test
    void aDecliningSinkLeavesTheEntryForTheNextPoll() {
        TimerWheel wheel = new TimerWheel(START, 10);
        wheel.add(START, 1);
        wheel.add(START + 1, 2);
        assertThat(wheel.pollDue(START + 10, 10, (due, offset) -> offset != 2)).isEqualTo(1);
        assertThat(wheel.size()).isEqualTo(1);
        List<Long> later = new ArrayList<>();
        wheel.pollDue(START + 10, 10, (due, offset) -> later.add(offset));
        assertThat(later).containsExactly(2L);
        assertThat(wheel.size()).isZero();
    }

    @Test
    void farEntriesWaitInTheOverflowAndMoveIntoTheWheel() {
        TimerWheel wheel = new TimerWheel(START, 4);
        long sevenDays = 7L * 86_400_000;
        wheel.add(START + sevenDays, 42);
        wheel.add(START + 1_500, 7);
        assertThat(wheel.overflowSize()).isEqualTo(1);
        List<Long> out = new ArrayList<>();
        wheel.pollDue(START + sevenDays - 1, Integer.MAX_VALUE, (due, offset) -> out.add(offset));
        assertThat(out).containsExactly(7L);
        assertThat(wheel.overflowSize()).isZero();
        wheel.pollDue(START + sevenDays, Integer.MAX_VALUE, (due, offset) -> out.add(offset));
        assertThat(out).containsExactly(7L, 42L);
    }

    @Test
    void memoryStaysAtAFewBytesPerPendingEntry() {
        TimerWheel wheel = new TimerWheel(START, TimerWheel.DEFAULT_SLOTS);
        Random random = new Random(1);
        int count = 1_000_000;
        for (int i = 0; i < count; i++) {
            wheel.add(START + random.nextInt(7 * 86_400_000), i);
        }
        assertThat(wheel.size()).isEqualTo(count);
        // most of a 7-day spread is beyond the one-hour wheel: 16 bytes each plus growth slack
        assertThat(wheel.memoryBytes()).isLessThan(count * 24L + TimerWheel.DEFAULT_SLOTS * 128L);
    }

    @Test
    void offsetsOutOfRangeAreRefused() {
        TimerWheel wheel = new TimerWheel(START, 10);
        assertThatThrownBy(() -> wheel.add(START, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> wheel.add(START, TimerWheel.MAX_OFFSET + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TimerWheel(START, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
