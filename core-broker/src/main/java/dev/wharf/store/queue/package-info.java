/**
 * Consume queues: per topic and queue id, a file-backed array of fixed 20-byte units
 * ({@link dev.wharf.store.queue.ConsumeQueueUnit}) pointing into the commit log, so a consumer's Nth message
 * is found by arithmetic. Written by the single dispatch thread, read lock-free by pulls;
 * {@link dev.wharf.store.queue.ConsumeQueueStore} is the table of all queues with load, recovery, flush and
 * clean-up. Queues map their files on use within a budget ({@link dev.wharf.store.queue.QueueMappings}), and the
 * {@link dev.wharf.store.queue.QueueManifest} records every queue's ends so a start registers and checks them
 * without opening any.
 */
package dev.wharf.store.queue;
