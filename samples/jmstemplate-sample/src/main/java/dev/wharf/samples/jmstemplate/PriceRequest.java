package dev.wharf.samples.jmstemplate;

/** A request for the price of some units of an item. */
public record PriceRequest(String item, int quantity) {
}
