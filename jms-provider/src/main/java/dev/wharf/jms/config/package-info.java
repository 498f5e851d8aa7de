/**
 * Connection configuration: the broker URL ({@link dev.wharf.jms.config.WharfUrl}), the factory options, each
 * declared once in {@link dev.wharf.jms.config.ConnectionOptionTable} and held by
 * {@link dev.wharf.jms.config.AbstractConnectionOptions} (whose accessors both
 * {@link dev.wharf.jms.config.ConnectionOptions} and the connection factory have), and the immutable snapshot of
 * URL and options that a connection is opened with ({@link dev.wharf.jms.config.WharfConnectionConfig}),
 * including, for {@code vm://} URLs, the settings of the in-JVM broker.
 */
package dev.wharf.jms.config;
