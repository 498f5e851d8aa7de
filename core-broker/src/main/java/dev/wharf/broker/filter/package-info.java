/**
 * Broker-side message filtering for pulls: tag expressions compared by hash in the consume queue, SQL92
 * selectors compiled once per group and topic and evaluated on a stored record's properties, read lazily
 * and typed by the record's {@code WHARF_PROPERTY_TYPES}.
 */
package dev.wharf.broker.filter;
