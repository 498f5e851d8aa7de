/**
 * Start-up safety: the {@code lock} file (one process per store), the {@code abort} marker (present = the
 * last run crashed), the {@code checkpoint} (how far everything is on disk; layout in
 * {@link dev.wharf.store.recovery.CheckpointLayout}), commit-log recovery (validate from the checkpoint, skip
 * damage below it, cut a torn tail above it) and the quarantine report ({@code quarantine.jsonl}: every
 * damaged range, never served). All of it runs at start-up and shutdown, single-threaded, except the
 * checkpoint, which the flush service updates while the store runs, and the report, which reads that find a
 * damaged record append to.
 */
package dev.wharf.store.recovery;
