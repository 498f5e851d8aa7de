/**
 * The message store API ({@link dev.wharf.store.MessageStore}) and the default store, which only wires the
 * parts together: commit log ({@code store.commitlog}) on mapped files ({@code store.file}), consume queues
 * ({@code store.queue}) and index ({@code store.index}) built by the dispatcher ({@code store.dispatch}),
 * recovery ({@code store.recovery}), clean-up ({@code store.cleanup}) and config files ({@code store.config}).
 *
 * <p>On disk under {@code storePathRootDir}: {@code commitlog/}, {@code consumequeue/{topic}/{queueId}/},
 * {@code index/}, {@code config/}, {@code checkpoint}, {@code abort} (present while running) and {@code lock}.
 */
package dev.wharf.store;
