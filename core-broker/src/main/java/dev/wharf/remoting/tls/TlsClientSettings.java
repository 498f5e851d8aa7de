package dev.wharf.remoting.tls;

import dev.wharf.remoting.PipelineHook;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * How a client speaks TLS: whom it trusts (PEM certificates; empty: the JDK's default authorities), its own
 * certificate for mutual TLS (optional) and whether the server's certificate must name the host connected to (on by
 * default, as HTTPS does).
 *
 * @param trustCertPath PEM file of trusted certificates, or empty for the JDK's trust store
 * @param certPath      this client's certificate (PEM, with {@code keyPath}) or PKCS#12 key store; empty for none
 * @param keyPath       PKCS#8 PEM private key of {@code certPath}
 * @param keyPassword   password of the key or key store; empty for none
 * @param verifyHostname whether the server certificate must match the host name or IP connected to
 */
public record TlsClientSettings(String trustCertPath, String certPath, String keyPath, String keyPassword,
                                boolean verifyHostname) {

    public TlsClientSettings {
        trustCertPath = trustCertPath == null ? "" : trustCertPath.trim();
        certPath = certPath == null ? "" : certPath.trim();
        keyPath = keyPath == null ? "" : keyPath.trim();
        keyPassword = keyPassword == null ? "" : keyPassword;
    }

    /**
     * The pipeline hook that makes every connection of a client TLS.
     *
     * @throws IllegalArgumentException a named file is missing or unreadable
     */
    public PipelineHook hook() {
        SslContext context = context();
        return (channel, host, port) -> channel.pipeline().addFirst("tls", context.newHandler(channel.alloc(), host,
                port));
    }

    /**
     * The JDK {@code SSLContext} of these settings, for a connection outside Netty (replication); the caller
     * applies {@link #verifyHostname()} to each socket.
     *
     * @throws IllegalArgumentException a named file is missing or unreadable
     */
    public SSLContext jdkContext() {
        return ((JdkSslContext) context()).context();
    }

    private SslContext context() {
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                .endpointIdentificationAlgorithm(verifyHostname ? "HTTPS" : null);
        if (!trustCertPath.isEmpty()) {
            builder.trustManager(TlsFiles.existing(trustCertPath, "tlsTrustCertPath"));
        }
        if (!certPath.isEmpty()) {
            TlsFiles.keyMaterial(builder, certPath, keyPath, keyPassword, "tlsCertPath", "tlsKeyPath");
        }
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("cannot set up client TLS: " + e.getMessage(), e);
        }
    }

    /**
     * The pipeline hook of a client whose key material comes ready-made (a Spring Boot SSL bundle, an application's
     * own key store) rather than from files.
     *
     * @param keys           this client's certificate for mutual TLS, or null for none
     * @param trust          whom it trusts, or null for the JDK's default authorities
     * @param verifyHostname whether the server certificate must match the host name or IP connected to
     * @throws IllegalArgumentException the managers cannot make a TLS context
     */
    public static PipelineHook hook(KeyManagerFactory keys, TrustManagerFactory trust, boolean verifyHostname) {
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                .endpointIdentificationAlgorithm(verifyHostname ? "HTTPS" : null).keyManager(keys);
        if (trust != null) {
            builder.trustManager(trust);
        }
        SslContext context;
        try {
            context = builder.build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("cannot set up client TLS from the given key and trust managers: "
                    + e.getMessage(), e);
        }
        return (channel, host, port) -> channel.pipeline().addFirst("tls", context.newHandler(channel.alloc(), host,
                port));
    }

    /** Shows the files, never the password. */
    @Override
    public String toString() {
        return "TlsClientSettings{trust=" + (trustCertPath.isEmpty() ? "JDK default" : trustCertPath)
                + (certPath.isEmpty() ? "" : ", cert=" + certPath) + ", verifyHostname=" + verifyHostname + "}";
    }
}
