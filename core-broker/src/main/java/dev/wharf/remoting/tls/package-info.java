/**
 * TLS for remoting connections with Netty's {@code SslHandler} on the JDK's provider: {@link
 * dev.wharf.remoting.tls.TlsServer} builds the server side from {@code NettyServerConfig} (enforcing, or permissive
 * to accept TLS and plain side by side), {@link dev.wharf.remoting.tls.TlsClientSettings} the client side.
 * Certificates are PEM files or PKCS#12 key stores.
 */
package dev.wharf.remoting.tls;
