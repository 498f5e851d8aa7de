package dev.wharf.broker.config;

/**
 * How the broker's own clients (registration with the NameServers, a slave's metadata sync, the controller) sign
 * their requests and whether they speak TLS.
 */
public class InnerClientConfig {

    private String innerClientAuthenticationCredentials = "";
    private boolean innerClientTlsEnable;
    private String innerClientTlsTrustCertPath = "";
    private String innerClientTlsCertPath = "";
    private String innerClientTlsKeyPath = "";
    private String innerClientTlsKeyPassword = "";

    /**
     * The user the broker's own requests are signed as (registration with the NameServers, a slave's metadata sync,
     * the controller), in RocketMQ's form <code>{"accessKey":"broker","secretKey":"..."}</code> or {@code user:password};
     * empty: unsigned. With authorization on, that user needs ADMIN on {@code cluster:<brokerClusterName>} at the
     * NameServers and on {@code cluster:*} at a master. Never logged.
     */
    public String getInnerClientAuthenticationCredentials() {
        return innerClientAuthenticationCredentials;
    }

    public void setInnerClientAuthenticationCredentials(String innerClientAuthenticationCredentials) {
        this.innerClientAuthenticationCredentials = innerClientAuthenticationCredentials == null ? ""
                : innerClientAuthenticationCredentials.trim();
    }

    /** Whether the broker's own clients (to NameServers, master, controller) speak TLS. */
    public boolean isInnerClientTlsEnable() {
        return innerClientTlsEnable;
    }

    public void setInnerClientTlsEnable(boolean innerClientTlsEnable) {
        this.innerClientTlsEnable = innerClientTlsEnable;
    }

    /** PEM certificates the broker's own clients trust; empty: the JDK's default authorities. */
    public String getInnerClientTlsTrustCertPath() {
        return innerClientTlsTrustCertPath;
    }

    public void setInnerClientTlsTrustCertPath(String innerClientTlsTrustCertPath) {
        this.innerClientTlsTrustCertPath = innerClientTlsTrustCertPath == null ? "" : innerClientTlsTrustCertPath;
    }

    /** The certificate the broker's own clients present for mutual TLS (PEM or PKCS#12 .p12); empty: none. */
    public String getInnerClientTlsCertPath() {
        return innerClientTlsCertPath;
    }

    public void setInnerClientTlsCertPath(String innerClientTlsCertPath) {
        this.innerClientTlsCertPath = innerClientTlsCertPath == null ? "" : innerClientTlsCertPath;
    }

    /** The PKCS#8 PEM private key of {@code innerClientTlsCertPath}. */
    public String getInnerClientTlsKeyPath() {
        return innerClientTlsKeyPath;
    }

    public void setInnerClientTlsKeyPath(String innerClientTlsKeyPath) {
        this.innerClientTlsKeyPath = innerClientTlsKeyPath == null ? "" : innerClientTlsKeyPath;
    }

    /** Password of that key or key store; empty for none. Never logged. */
    public String getInnerClientTlsKeyPassword() {
        return innerClientTlsKeyPassword;
    }

    public void setInnerClientTlsKeyPassword(String innerClientTlsKeyPassword) {
        this.innerClientTlsKeyPassword = innerClientTlsKeyPassword == null ? "" : innerClientTlsKeyPassword;
    }
}
