/**
 * Clean-up: expired commit-log files (by age at the {@code deleteWhen} hours, or at once when the disk is too
 * full), then the consume-queue and index files that only point below the first remaining commit-log offset.
 * Both services run on the store's scheduler thread.
 */
package dev.wharf.store.cleanup;
