/**
 * The broker role: {@link dev.wharf.broker.Broker} wires the store, the managers, the request processors,
 * long polling, housekeeping and NameServer registration; sub-packages hold each part. The root package
 * depends on its sub-packages, never the other way round.
 */
package dev.wharf.broker;
