/**
 * Broker and NameServer metrics: Micrometer meters bound to what the store, the remoting layer and the broker's
 * managers already count, exported in Prometheus's text format over HTTP ({@code metricsExporterType=PROM}).
 *
 * <p>Hot paths only bump meters resolved once (per topic, per request/response code pair); everything that is a
 * level rather than an event (lag, depths, disk, replication) is sampled when Prometheus scrapes. Nothing below
 * this package imports it: the store and the remoting layer report through {@code StoreObserver} and
 * {@code RequestObserver}, and the server attaches the meters to a broker or NameServer it starts.
 */
package dev.wharf.metrics;
