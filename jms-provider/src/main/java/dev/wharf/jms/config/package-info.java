/**
 * Connection configuration: the broker URL ({@link dev.wharf.jms.config.WharfUrl}), the factory options
 * ({@link dev.wharf.jms.config.ConnectionOptions}) and the immutable snapshot of both that a connection is
 * opened with ({@link dev.wharf.jms.config.WharfConnectionConfig}), including, for {@code vm://} URLs, the
 * settings of the in-JVM broker.
 */
package dev.wharf.jms.config;
