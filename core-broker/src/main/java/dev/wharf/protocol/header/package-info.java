/**
 * Typed request and response headers, carried as the frame header's {@code extFields}. Headers are records
 * grouped by area; {@link dev.wharf.protocol.header.HeaderCodec} maps them to and from the string map.
 */
package dev.wharf.protocol.header;
