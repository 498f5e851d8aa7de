package dev.wharf.client.impl;

import dev.wharf.client.ClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.auth.SigningHook;
import dev.wharf.remoting.tls.TlsClientSettings;
import dev.wharf.security.Credentials;

/** Applies a client's credentials and TLS settings to its remoting client. */
public final class ClientSecurity {

    private ClientSecurity() {
    }

    /**
     * Signs requests as {@code accessKey} when one is set, and makes connections TLS when {@code tlsEnable}.
     *
     * @throws IllegalArgumentException a password shorter than 8 characters, a key without password, or unreadable
     *                                  TLS files
     */
    public static NettyRemotingClient apply(NettyRemotingClient remoting, ClientConfig config) {
        if (!config.getAccessKey().isEmpty()) {
            if (config.getSecretKey().isEmpty()) {
                throw new IllegalArgumentException("user '" + config.getAccessKey() + "' is set without a password;"
                        + " give the password (secretKey) too");
            }
            remoting.setRequestSigner(new SigningHook(Credentials.of(config.getAccessKey(), config.getSecretKey())));
        }
        if (config.isTlsEnable() && (config.getTlsKeyManagers() != null || config.getTlsTrustManagers() != null)) {
            remoting.setPipelineHook(TlsClientSettings.hook(config.getTlsKeyManagers(), config.getTlsTrustManagers(),
                    config.isTlsVerifyHostname()));
        } else if (config.isTlsEnable()) {
            remoting.setPipelineHook(new TlsClientSettings(config.getTlsTrustCertPath(), config.getTlsCertPath(),
                    config.getTlsKeyPath(), config.getTlsKeyPassword(), config.isTlsVerifyHostname()).hook());
        }
        return remoting;
    }
}
