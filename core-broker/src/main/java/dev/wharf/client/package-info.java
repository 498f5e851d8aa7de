/**
 * The low-level client's settings, its error type and the transaction check-back SPI. Producers, consumers and
 * the admin client live in the sub-packages; they share one connection set per client id through
 * {@link dev.wharf.client.impl.ClientInstance}.
 *
 * <p>Package layering, bottom to top (no cycles): {@code client} &lt; {@code client.route} &lt;
 * {@code client.impl} &lt; {@code client.consumer.offset} &lt; {@code client.consumer.push} &lt;
 * {@code client.consumer}, {@code client.producer}, {@code client.admin}.
 */
package dev.wharf.client;
