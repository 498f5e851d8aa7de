package dev.wharf.remoting.tls;

import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.PipelineHook;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * The TLS side of a server: {@code tlsMode=enforcing} puts an {@code SslHandler} first in every pipeline;
 * {@code permissive} puts a {@link PermissiveTlsHandler}, which looks at a connection's first byte and adds TLS only
 * when it opens a TLS handshake, so plain and TLS clients share the port during a migration.
 */
public final class TlsServer {

    private TlsServer() {
    }

    /**
     * The pipeline hook for the server's settings, or null when {@code tlsMode=disabled}.
     *
     * @throws IllegalArgumentException a certificate or key setting is missing or names an unreadable file
     */
    public static PipelineHook hook(NettyServerConfig config) {
        if (!config.isTlsEnable()) {
            return null;
        }
        SslContext context = context(config);
        boolean permissive = "permissive".equals(config.getTlsMode());
        return (channel, host, port) -> channel.pipeline().addFirst(permissive ? "tls-detect" : "tls", permissive
                ? new PermissiveTlsHandler(context) : context.newHandler(channel.alloc()));
    }

    /**
     * The JDK {@code SSLContext} of the server's settings, for a port outside Netty (replication), or null when
     * {@code tlsMode=disabled}. The caller applies {@code tlsServerNeedClientAuth} to each socket.
     *
     * @throws IllegalArgumentException a certificate or key setting is missing or names an unreadable file
     */
    public static SSLContext jdkContext(NettyServerConfig config) {
        return config.isTlsEnable() ? ((JdkSslContext) context(config)).context() : null;
    }

    static SslContext context(NettyServerConfig config) {
        String cert = config.getTlsServerCertPath();
        if (cert.isEmpty()) {
            throw new IllegalArgumentException("tlsMode=" + config.getTlsMode() + " needs tlsServerCertPath (a PEM"
                    + " certificate chain with tlsServerKeyPath, or a PKCS#12 .p12 key store)");
        }
        SslContextBuilder builder;
        if (TlsFiles.isKeyStore(cert)) {
            builder = SslContextBuilder.forServer(TlsFiles.keyStore(cert, config.getTlsServerKeyPassword(),
                    "tlsServerCertPath"));
        } else {
            if (config.getTlsServerKeyPath().isEmpty()) {
                throw new IllegalArgumentException("tlsServerCertPath is a PEM certificate, so tlsServerKeyPath must"
                        + " name its PKCS#8 PEM private key");
            }
            String pw = config.getTlsServerKeyPassword();
            builder = SslContextBuilder.forServer(TlsFiles.existing(cert, "tlsServerCertPath"),
                    TlsFiles.existing(config.getTlsServerKeyPath(), "tlsServerKeyPath"), pw.isEmpty() ? null : pw);
        }
        builder.sslProvider(SslProvider.JDK);
        if (!config.getTlsServerTrustCertPath().isEmpty()) {
            builder.trustManager(TlsFiles.existing(config.getTlsServerTrustCertPath(), "tlsServerTrustCertPath"));
        }
        builder.clientAuth(config.isTlsServerNeedClientAuth() ? ClientAuth.REQUIRE : ClientAuth.NONE);
        try {
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot set up TLS from tlsServerCertPath=" + cert + ": "
                    + e.getMessage(), e);
        }
    }
}
