/**
 * Request and response bodies: JSON records (routes, heartbeats, stats) through {@link dev.wharf.protocol.body.Json},
 * and the binary batch encoding of SEND_BATCH_MESSAGE.
 */
package dev.wharf.protocol.body;
