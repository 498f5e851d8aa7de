/**
 * The client's machinery: {@link dev.wharf.client.impl.ClientInstance} (one per client id, shared and
 * ref-counted: connections, route cache, heartbeats, rebalance and offset-persistence schedules, broker-to-client
 * requests) and the RPC layer, one method per request, typed with the protocol's header records and bodies.
 * Remoting failures become {@link dev.wharf.client.ClientException}s that name the peer and the request.
 */
package dev.wharf.client.impl;
