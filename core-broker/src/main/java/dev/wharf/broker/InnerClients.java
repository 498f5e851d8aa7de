package dev.wharf.broker;

import dev.wharf.broker.config.InnerClientConfig;
import dev.wharf.broker.ha.HaSecurity;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.PipelineHook;
import dev.wharf.remoting.auth.ServerSecurity;
import dev.wharf.remoting.auth.SigningHook;
import dev.wharf.remoting.tls.TlsClientSettings;
import dev.wharf.remoting.tls.TlsServer;
import dev.wharf.security.Credentials;

/**
 * Credentials and TLS of the broker's own clients (NameServer registration, a slave's metadata sync), built once
 * from {@code innerClient*} settings: deriving the signing key is slow on purpose, so it is not done per client.
 */
final class InnerClients {

    private final SigningHook signer;
    private final PipelineHook tls;
    private final Credentials credentials;
    private final TlsClientSettings tlsSettings;

    private InnerClients(SigningHook signer, PipelineHook tls, Credentials credentials, TlsClientSettings tlsSettings) {
        this.signer = signer;
        this.tls = tls;
        this.credentials = credentials;
        this.tlsSettings = tlsSettings;
    }

    /** @throws IllegalArgumentException malformed credentials or unreadable TLS files; the message names the key */
    static InnerClients from(InnerClientConfig config) {
        String value = config.getInnerClientAuthenticationCredentials();
        Credentials credentials = value.isEmpty() ? null
                : Credentials.parse(value, "innerClientAuthenticationCredentials");
        SigningHook signer = credentials == null ? null : new SigningHook(credentials);
        TlsClientSettings tlsSettings = !config.isInnerClientTlsEnable() ? null
                : new TlsClientSettings(config.getInnerClientTlsTrustCertPath(), config.getInnerClientTlsCertPath(),
                        config.getInnerClientTlsKeyPath(), config.getInnerClientTlsKeyPassword(), true);
        PipelineHook tls = tlsSettings == null ? null : tlsSettings.hook();
        return new InnerClients(signer, tls, credentials, tlsSettings);
    }

    /**
     * The replication port's security: TLS as the remoting port has it, a slave's TLS and credentials from these
     * inner-client settings, and slaves authenticated against the broker's users when the broker authenticates.
     *
     * @param slave whether this broker may have to follow a master (a slave, or any broker in controller mode)
     * @throws IllegalArgumentException a slave of a broker that authenticates has no credentials to replicate with
     */
    HaSecurity haSecurity(NettyServerConfig netty, ServerSecurity security, String clusterName, boolean slave) {
        boolean authenticate = security.access() != null;
        if (authenticate && slave && credentials == null) {
            throw new IllegalArgumentException("aclEnable/authenticationEnabled=true on a broker that replicates from"
                    + " a master needs innerClientAuthenticationCredentials (a user of the master's users file"
                    + (netty.isAuthorizationEnabled() ? " with ADMIN on cluster:" + clusterName : "")
                    + "): the master refuses slaves that do not authenticate");
        }
        return HaSecurity.builder()
                .serverTls(TlsServer.jdkContext(netty), "permissive".equals(netty.getTlsMode()),
                        netty.isTlsServerNeedClientAuth())
                .clientTls(tlsSettings == null ? null : tlsSettings.jdkContext(), tlsSettings != null
                        && tlsSettings.verifyHostname())
                .authenticateSlaves(security.access(), netty.isAuthorizationEnabled(), clusterName)
                .credentials(authenticate ? credentials : null)
                .build();
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
