package dev.wharf.broker;

import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.PipelineHook;
import dev.wharf.remoting.auth.SigningHook;
import dev.wharf.remoting.tls.TlsClientSettings;
import dev.wharf.security.Credentials;

/**
 * Credentials and TLS of the broker's own clients (NameServer registration, a slave's metadata sync), built once
 * from {@code innerClient*} settings: deriving the signing key is slow on purpose, so it is not done per client.
 */
final class InnerClients {

    private final SigningHook signer;
    private final PipelineHook tls;

    private InnerClients(SigningHook signer, PipelineHook tls) {
        this.signer = signer;
        this.tls = tls;
    }

    /** @throws IllegalArgumentException malformed credentials or unreadable TLS files; the message names the key */
    static InnerClients from(BrokerConfig config) {
        String credentials = config.getInnerClientAuthenticationCredentials();
        SigningHook signer = credentials.isEmpty() ? null
                : new SigningHook(Credentials.parse(credentials, "innerClientAuthenticationCredentials"));
        PipelineHook tls = !config.isInnerClientTlsEnable() ? null
                : new TlsClientSettings(config.getInnerClientTlsTrustCertPath(), config.getInnerClientTlsCertPath(),
                        config.getInnerClientTlsKeyPath(), config.getInnerClientTlsKeyPassword(), true).hook();
        return new InnerClients(signer, tls);
    }

    /** Applies the credentials and TLS to a client before it starts. */
    NettyRemotingClient apply(NettyRemotingClient client) {
        client.setRequestSigner(signer);
        if (tls != null) {
            client.setPipelineHook(tls);
        }
        return client;
    }
}
