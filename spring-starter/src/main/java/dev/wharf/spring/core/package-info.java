/**
 * {@link dev.wharf.spring.core.WharfTemplate}: sends with the broker's own features (tags, keys, sharding keys,
 * delay levels, delivery times, batches, one-way and asynchronous sends, request and reply), joining the
 * application's Spring-managed transaction the way JmsTemplate does.
 */
package dev.wharf.spring.core;
