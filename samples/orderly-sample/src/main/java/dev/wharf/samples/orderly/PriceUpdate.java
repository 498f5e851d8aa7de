package dev.wharf.samples.orderly;

/**
 * A new price, broadcast to every instance's cache and audited once.
 *
 * @param item    the item
 * @param cents   the price
 * @param version the update's place in the sender's sequence: a listener that consumes concurrently may see two
 *                updates of one item in either order, and the higher version is the current price
 * @param run     the run that sent it
 */
public record PriceUpdate(String item, long cents, long version, String run) {
}
