/**
 * Start-up safety: the {@code lock} file (one process per store), the {@code abort} marker (present = the
 * last run crashed), the {@code checkpoint} (how far everything is on disk; layout in
 * {@link dev.wharf.store.recovery.CheckpointLayout}) and commit-log recovery (validate the tail, truncate at the
 * first damaged record). All of it runs at start-up and shutdown, single-threaded, except the checkpoint,
 * which the flush service updates while the store runs.
 */
package dev.wharf.store.recovery;
