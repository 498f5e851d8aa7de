/**
 * Consumers. {@link dev.wharf.client.consumer.PushConsumer} joins a consumer group, gets queues assigned and calls
 * a listener; {@link dev.wharf.client.consumer.PullConsumer} leaves queue choice and offsets to the application.
 *
 * <p><b>Delivery is at-least-once.</b> A message is delivered until a listener reports it consumed (or, after
 * {@code maxReconsumeTimes} failures, it is moved to the group's dead-letter queue {@code %DLQ%group}). A consumer
 * crash, a rebalance that moves a queue, or a lost offset commit redelivers messages that were already consumed;
 * nothing is skipped. Applications deduplicate by {@code MessageExt.getMsgId()} (the producer's unique id, the
 * same for every delivery and every send retry) or by business keys.
 */
package dev.wharf.client.consumer;
