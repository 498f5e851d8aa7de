/**
 * Consumer offsets: where a group continues in each queue. Clustering groups keep them on the broker
 * ({@link dev.wharf.client.consumer.offset.RemoteOffsetStore}), broadcasting consumers in a local file written
 * atomically ({@link dev.wharf.client.consumer.offset.LocalFileOffsetStore}). An offset is the next message to
 * consume: everything below it has been consumed.
 */
package dev.wharf.client.consumer.offset;
