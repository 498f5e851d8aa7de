package dev.wharf.chaos.nemesis;

/**
 * One injected fault.
 *
 * @param kind      what was done
 * @param target    the node it was done to
 * @param startedAt wall-clock milliseconds when it began
 * @param healedAt  when it was undone (the restarted process ready, SIGCONT sent, rules removed); 0 if never
 * @param note      what went wrong when healing, or empty
 */
public record FaultEvent(FaultKind kind, String target, long startedAt, long healedAt, String note) {
}
