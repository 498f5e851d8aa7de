package dev.wharf.samples.orderly;

/**
 * A new price, broadcast to every instance's cache and audited once.
 *
 * @param item  the item
 * @param cents the price
 * @param run   the run that sent it
 */
public record PriceUpdate(String item, long cents, String run) {
}
