package dev.wharf.remoting;

import dev.wharf.protocol.RemotingFrameDescriptor;
import io.netty.util.internal.PlatformDependent;
import java.util.Objects;

/** Settings of a {@link NettyRemotingServer}; property names follow RocketMQ's where they exist. */
public class NettyServerConfig extends NettyEndpointConfig {

    private int listenPort = 10911;
    private String bindAddress = "127.0.0.1";
    private int backlog = 1024;
    private long maxPartialFrameBytes = defaultMaxPartialFrameBytes();

    public NettyServerConfig() {
        super(3);
    }

    /** TCP port to listen on; 0 picks a free port (read it back with {@link NettyRemotingServer#localPort()}). */
    public int getListenPort() {
        return listenPort;
    }

    public void setListenPort(int listenPort) {
        if (listenPort < 0 || listenPort > 65_535) {
            throw new IllegalArgumentException("listenPort must be 0..65535 (0 = any free port), got " + listenPort);
        }
        this.listenPort = listenPort;
    }

    /** Address to listen on; loopback by default, "0.0.0.0" for every interface. */
    public String getBindAddress() {
        return bindAddress;
    }

    public void setBindAddress(String bindAddress) {
        Objects.requireNonNull(bindAddress, "bindAddress");
        if (bindAddress.isBlank()) {
            throw new IllegalArgumentException("bindAddress must be an address such as 127.0.0.1 or 0.0.0.0");
        }
        this.bindAddress = bindAddress.trim();
    }

    /** Pending connections the kernel queues before they are accepted. */
    public int getBacklog() {
        return backlog;
    }

    public void setBacklog(int backlog) {
        this.backlog = atLeast("backlog", backlog, 1);
    }

    /**
     * The most bytes of buffers holding unfinished frames all connections may keep together; when they would
     * keep more, the connections holding the most are closed (one log line each). By default a quarter of the
     * direct memory the JVM may use, between two default-sized frames and 256 MiB. It must be at least twice
     * {@code maxFrameLength} (a frame's buffer grows ahead of its bytes); raise it when many clients send large
     * messages at once.
     */
    public long getMaxPartialFrameBytes() {
        return maxPartialFrameBytes;
    }

    public void setMaxPartialFrameBytes(long maxPartialFrameBytes) {
        if (maxPartialFrameBytes < 1024) {
            throw new IllegalArgumentException("maxPartialFrameBytes must be at least 1024, got "
                    + maxPartialFrameBytes);
        }
        this.maxPartialFrameBytes = maxPartialFrameBytes;
    }

    // ------------------------------------------------------------------ security (RocketMQ's ACL key names)

    private boolean authenticationEnabled;
    private boolean authorizationEnabled;
    private String aclFile = "";
    private long authReplayWindowMillis = 120_000;
    private String tlsMode = "disabled";
    private String tlsServerCertPath = "";
    private String tlsServerKeyPath = "";
    private String tlsServerKeyPassword = "";
    private String tlsServerTrustCertPath = "";
    private boolean tlsServerNeedClientAuth;

    /**
     * Whether every request must be signed by a user of {@link #getAclFile()} (RocketMQ ACL 2.0's key). Off by default
     * so existing set-ups keep working; a server bound to a non-loopback address without it logs a warning.
     */
    public boolean isAuthenticationEnabled() {
        return authenticationEnabled;
    }

    public void setAuthenticationEnabled(boolean authenticationEnabled) {
        this.authenticationEnabled = authenticationEnabled;
    }

    /**
     * Whether the policies of {@link #getAclFile()} decide which user may do what (RocketMQ ACL 2.0's key); needs
     * {@code authenticationEnabled}.
     */
    public boolean isAuthorizationEnabled() {
        return authorizationEnabled;
    }

    public void setAuthorizationEnabled(boolean authorizationEnabled) {
        this.authorizationEnabled = authorizationEnabled;
    }

    /** Whether both authentication and authorization are on (RocketMQ ACL 1.0's key). */
    public boolean isAclEnable() {
        return authenticationEnabled && authorizationEnabled;
    }

    /** {@code true} turns on authentication and authorization together, {@code false} turns both off. */
    public void setAclEnable(boolean aclEnable) {
        this.authenticationEnabled = aclEnable;
        this.authorizationEnabled = aclEnable;
    }

    /**
     * The users and policies file (JSON, see {@code dev.wharf.security.AclFile}), reloaded when it changes. Empty: a
     * broker uses {@code config/acl.json} under its store; a NameServer needs it set when authentication is on.
     */
    public String getAclFile() {
        return aclFile;
    }

    public void setAclFile(String aclFile) {
        this.aclFile = aclFile == null ? "" : aclFile.trim();
    }

    /**
     * How far a signed request's time may lie from the server's clock, either way, in milliseconds; a captured
     * request can be replayed within this window only (TLS closes even that).
     */
    public long getAuthReplayWindowMillis() {
        return authReplayWindowMillis;
    }

    public void setAuthReplayWindowMillis(long authReplayWindowMillis) {
        if (authReplayWindowMillis < 1_000) {
            throw new IllegalArgumentException("authReplayWindowMillis must be at least 1000 (clocks drift), got "
                    + authReplayWindowMillis);
        }
        this.authReplayWindowMillis = authReplayWindowMillis;
    }

    /**
     * TLS on this port (RocketMQ's {@code tls.server.mode} values): {@code disabled} (plain only), {@code permissive}
     * (TLS and plain side by side, for a migration) or {@code enforcing} (TLS only).
     */
    public String getTlsMode() {
        return tlsMode;
    }

    public void setTlsMode(String tlsMode) {
        String mode = tlsMode == null ? "" : tlsMode.trim().toLowerCase(java.util.Locale.ROOT);
        if (!mode.equals("disabled") && !mode.equals("permissive") && !mode.equals("enforcing")) {
            throw new IllegalArgumentException("tlsMode must be disabled, permissive or enforcing, got '" + tlsMode
                    + "'");
        }
        this.tlsMode = mode;
    }

    /** Whether {@code tlsMode} is not {@code disabled}. */
    public boolean isTlsEnable() {
        return !"disabled".equals(tlsMode);
    }

    /** {@code true} is {@code tlsMode=enforcing}, {@code false} is {@code tlsMode=disabled} (RocketMQ's client key). */
    public void setTlsEnable(boolean tlsEnable) {
        this.tlsMode = tlsEnable ? "enforcing" : "disabled";
    }

    /** The server's certificate chain: a PEM file, or a PKCS#12 key store (.p12/.pfx) holding key and chain. */
    public String getTlsServerCertPath() {
        return tlsServerCertPath;
    }

    public void setTlsServerCertPath(String tlsServerCertPath) {
        this.tlsServerCertPath = tlsServerCertPath == null ? "" : tlsServerCertPath.trim();
    }

    /** The server's private key, PKCS#8 PEM; empty when {@code tlsServerCertPath} is a PKCS#12 key store. */
    public String getTlsServerKeyPath() {
        return tlsServerKeyPath;
    }

    public void setTlsServerKeyPath(String tlsServerKeyPath) {
        this.tlsServerKeyPath = tlsServerKeyPath == null ? "" : tlsServerKeyPath.trim();
    }

    /** Password of an encrypted key or of the PKCS#12 key store; empty for none. Never logged. */
    public String getTlsServerKeyPassword() {
        return tlsServerKeyPassword;
    }

    public void setTlsServerKeyPassword(String tlsServerKeyPassword) {
        this.tlsServerKeyPassword = tlsServerKeyPassword == null ? "" : tlsServerKeyPassword;
    }

    /** PEM certificates of the authorities whose client certificates are trusted (mutual TLS); empty: the JDK's. */
    public String getTlsServerTrustCertPath() {
        return tlsServerTrustCertPath;
    }

    public void setTlsServerTrustCertPath(String tlsServerTrustCertPath) {
        this.tlsServerTrustCertPath = tlsServerTrustCertPath == null ? "" : tlsServerTrustCertPath.trim();
    }

    /** Whether clients must present a trusted certificate (mutual TLS). */
    public boolean isTlsServerNeedClientAuth() {
        return tlsServerNeedClientAuth;
    }

    public void setTlsServerNeedClientAuth(boolean tlsServerNeedClientAuth) {
        this.tlsServerNeedClientAuth = tlsServerNeedClientAuth;
    }

    // ------------------------------------------------------------------ per-request signatures

    private boolean aclSignEveryRequest;

    /**
     * With authentication on: whether a plain (non-TLS) connection must sign every request, as RocketMQ's clients
     * do, instead of authenticating once per connection with a challenge-response session. TLS connections may open
     * sessions either way. Signed requests are accepted in both cases.
     */
    public boolean isAclSignEveryRequest() {
        return aclSignEveryRequest;
    }

    public void setAclSignEveryRequest(boolean aclSignEveryRequest) {
        this.aclSignEveryRequest = aclSignEveryRequest;
    }

    private static long defaultMaxPartialFrameBytes() {
        long quarterOfDirect = PlatformDependent.maxDirectMemory() / 4;
        return Math.max(2L * RemotingFrameDescriptor.DEFAULT_MAX_FRAME_LENGTH, Math.min(256L << 20, quarterOfDirect));
    }
}
