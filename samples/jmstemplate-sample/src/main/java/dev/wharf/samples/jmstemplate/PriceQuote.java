package dev.wharf.samples.jmstemplate;

/** The pricing desk's answer to a {@link PriceRequest}. */
public record PriceQuote(String item, int quantity, long totalCents) {
}
