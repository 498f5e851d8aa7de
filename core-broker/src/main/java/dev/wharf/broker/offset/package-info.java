/**
 * Consumer offsets per group, topic and queue, persisted as {@code config/consumerOffset.json}, and the
 * per-queue pull bookkeeping behind consume statistics.
 */
package dev.wharf.broker.offset;
