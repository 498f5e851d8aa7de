package dev.wharf.client;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Settings shared by every producer, consumer and admin client built from it (RocketMQ's key names). Two clients
 * whose {@link #buildClientId() client ids} are equal share one {@code ClientInstance}: one connection per broker,
 * one route cache, one heartbeat - and the settings of the first of them to start (a later one with another
 * NameServer address or API timeout is refused). Setters check their argument and say what a valid value is.
 *
 * <p>Not thread-safe; configure before starting a client. A started client keeps a copy.
 */
public class ClientConfig {

    /** The instance name that stands for "this process" (the process id in the client id). */
    public static final String DEFAULT_INSTANCE_NAME = "DEFAULT";

    /** Where a client looks for NameServers when told nothing: {@value}. */
    public static final String DEFAULT_NAMESRV_ADDR = "127.0.0.1:9876";

    private String namesrvAddr = defaultNamesrvAddr();
    private String instanceName = DEFAULT_INSTANCE_NAME;
    private String clientIP = localAddress();
    private int pollNameServerInterval = 30_000;
    private int heartbeatBrokerInterval = 30_000;
    private int persistConsumerOffsetInterval = 5_000;
    private int mqClientApiTimeout = 3_000;
    private int clientCallbackExecutorThreads = Runtime.getRuntime().availableProcessors();
    private int maxMessageSize = 4 * 1024 * 1024;

    /**
     * NameServer addresses, {@code "host:port;host:port"}; a client fails over between them. Defaults to the system
     * property {@code wharf.namesrv}, else the environment variable {@code WHARF_NAMESRV}, else
     * {@value #DEFAULT_NAMESRV_ADDR} (a local standalone server).
     */
    public String getNamesrvAddr() {
        return namesrvAddr;
    }

    public void setNamesrvAddr(String namesrvAddr) {
        this.namesrvAddr = namesrvAddr == null ? null : namesrvAddr.trim();
    }

    private static String defaultNamesrvAddr() {
        String configured = System.getProperty("wharf.namesrv");
        if (configured == null || configured.isBlank()) {
            configured = System.getenv("WHARF_NAMESRV");
        }
        return configured == null || configured.isBlank() ? DEFAULT_NAMESRV_ADDR : configured.trim();
    }

    /**
     * Second half of the client id. Clients of one process with the same instance name share connections; give
     * a consumer its own name to run several members of one consumer group in one process. {@value
     * #DEFAULT_INSTANCE_NAME} means the process id.
     */
    public String getInstanceName() {
        return instanceName;
    }

    public void setInstanceName(String instanceName) {
        if (instanceName == null || instanceName.isBlank()) {
            throw new IllegalArgumentException("instanceName must not be empty; use \"" + DEFAULT_INSTANCE_NAME
                    + "\" for the process id or a name of your own");
        }
        if (instanceName.indexOf('@') >= 0 || instanceName.indexOf('/') >= 0 || instanceName.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("instanceName \"" + instanceName
                    + "\" must not contain '@', '/' or '\\' (it becomes part of the client id and of file names)");
        }
        this.instanceName = instanceName.trim();
    }

    /** The address this client reports as its own (first half of the client id); a site-local IPv4 by default. */
    public String getClientIP() {
        return clientIP;
    }

    public void setClientIP(String clientIP) {
        if (clientIP == null || clientIP.isBlank()) {
            throw new IllegalArgumentException("clientIP must be an address such as 192.168.0.10");
        }
        this.clientIP = clientIP.trim();
    }

    /** How often the routes of the topics in use are refreshed from the NameServer, in ms. */
    public int getPollNameServerInterval() {
        return pollNameServerInterval;
    }

    public void setPollNameServerInterval(int pollNameServerInterval) {
        this.pollNameServerInterval = atLeast("pollNameServerInterval", pollNameServerInterval, 10);
    }

    /** How often the client sends heartbeats (its groups and subscriptions) to every broker it knows, in ms. */
    public int getHeartbeatBrokerInterval() {
        return heartbeatBrokerInterval;
    }

    public void setHeartbeatBrokerInterval(int heartbeatBrokerInterval) {
        this.heartbeatBrokerInterval = atLeast("heartbeatBrokerInterval", heartbeatBrokerInterval, 10);
    }

    /** How often consumers commit their offsets to the broker (or the local file in broadcasting), in ms. */
    public int getPersistConsumerOffsetInterval() {
        return persistConsumerOffsetInterval;
    }

    public void setPersistConsumerOffsetInterval(int persistConsumerOffsetInterval) {
        this.persistConsumerOffsetInterval = atLeast("persistConsumerOffsetInterval", persistConsumerOffsetInterval, 10);
    }

    /** Timeout of the client's own requests (routes, heartbeats, offsets, admin), in ms. */
    public int getMqClientApiTimeout() {
        return mqClientApiTimeout;
    }

    public void setMqClientApiTimeout(int mqClientApiTimeout) {
        this.mqClientApiTimeout = atLeast("mqClientApiTimeout", mqClientApiTimeout, 1);
    }

    /** Threads that complete asynchronous calls and run send callbacks and check-backs. */
    public int getClientCallbackExecutorThreads() {
        return clientCallbackExecutorThreads;
    }

    public void setClientCallbackExecutorThreads(int clientCallbackExecutorThreads) {
        this.clientCallbackExecutorThreads = atLeast("clientCallbackExecutorThreads", clientCallbackExecutorThreads, 1);
    }

    /**
     * Largest message body this client accepts from a broker once decompressed (default 4 MiB, the brokers'
     * default maxMessageSize). A compressed body is inflated only up to this size: one that would grow beyond it
     * (a "zip bomb", or a message stored under a larger broker limit) is reported and skipped, never inflated in
     * full. Keep it at least the brokers' maxMessageSize. Read when the client instance starts.
     */
    public int getMaxMessageSize() {
        return maxMessageSize;
    }

    public void setMaxMessageSize(int maxMessageSize) {
        this.maxMessageSize = atLeast("maxMessageSize", maxMessageSize, 1);
    }

    // ------------------------------------------------------------------ security

    private String accessKey = "";
    private String secretKey = "";
    private boolean tlsEnable;
    private String tlsTrustCertPath = "";
    private String tlsCertPath = "";
    private String tlsKeyPath = "";
    private String tlsKeyPassword = "";
    private boolean tlsVerifyHostname = true;
    private KeyManagerFactory tlsKeyManagers;
    private TrustManagerFactory tlsTrustManagers;

    /** The user every request is signed as (RocketMQ's name for it); empty: requests are not signed. */
    public String getAccessKey() {
        return accessKey;
    }

    public void setAccessKey(String accessKey) {
        this.accessKey = accessKey == null ? "" : accessKey.trim();
    }

    /** The password of {@link #getAccessKey()}; only a key derived from it is kept once the client starts. */
    public String getSecretKey() {
        return secretKey;
    }

    public void setSecretKey(String secretKey) {
        this.secretKey = secretKey == null ? "" : secretKey;
    }

    /** Sets user and password together. */
    public ClientConfig withCredentials(String user, String password) {
        setAccessKey(user);
        setSecretKey(password);
        return this;
    }

    /** Whether connections to NameServers and brokers speak TLS (RocketMQ's client key). */
    public boolean isTlsEnable() {
        return tlsEnable;
    }

    public void setTlsEnable(boolean tlsEnable) {
        this.tlsEnable = tlsEnable;
    }

    /** PEM certificates trusted as servers' (e.g. a self-signed server certificate); empty: the JDK's authorities. */
    public String getTlsTrustCertPath() {
        return tlsTrustCertPath;
    }

    public void setTlsTrustCertPath(String tlsTrustCertPath) {
        this.tlsTrustCertPath = tlsTrustCertPath == null ? "" : tlsTrustCertPath.trim();
    }

    /** This client's certificate for mutual TLS: PEM (with {@link #getTlsKeyPath()}) or a PKCS#12 .p12 key store. */
    public String getTlsCertPath() {
        return tlsCertPath;
    }

    public void setTlsCertPath(String tlsCertPath) {
        this.tlsCertPath = tlsCertPath == null ? "" : tlsCertPath.trim();
    }

    /** The PKCS#8 PEM private key of {@link #getTlsCertPath()}. */
    public String getTlsKeyPath() {
        return tlsKeyPath;
    }

    public void setTlsKeyPath(String tlsKeyPath) {
        this.tlsKeyPath = tlsKeyPath == null ? "" : tlsKeyPath.trim();
    }

    /** Password of the key or key store; empty for none. */
    public String getTlsKeyPassword() {
        return tlsKeyPassword;
    }

    public void setTlsKeyPassword(String tlsKeyPassword) {
        this.tlsKeyPassword = tlsKeyPassword == null ? "" : tlsKeyPassword;
    }

    /** Whether a server's certificate must name the host or IP connected to (on by default). */
    public boolean isTlsVerifyHostname() {
        return tlsVerifyHostname;
    }

    public void setTlsVerifyHostname(boolean tlsVerifyHostname) {
        this.tlsVerifyHostname = tlsVerifyHostname;
    }

    /**
     * Key material made by the application (a Spring Boot SSL bundle, say) instead of the {@code tls*Path} files:
     * when either is set, TLS uses these and ignores the paths.
     *
     * @param keys  this client's certificate for mutual TLS, or null for none
     * @param trust whom it trusts, or null for the JDK's default authorities
     */
    public void setTlsManagers(KeyManagerFactory keys, TrustManagerFactory trust) {
        this.tlsKeyManagers = keys;
        this.tlsTrustManagers = trust;
    }

    public KeyManagerFactory getTlsKeyManagers() {
        return tlsKeyManagers;
    }

    public TrustManagerFactory getTlsTrustManagers() {
        return tlsTrustManagers;
    }

    /** {@code clientIP@instanceName}, with the process id for the default instance name. */
    public String buildClientId() {
        String name = DEFAULT_INSTANCE_NAME.equals(instanceName)
                ? String.valueOf(ProcessHandle.current().pid()) : instanceName;
        return clientIP + "@" + name;
    }

    /** An independent copy, so that a started client is not affected by later changes. */
    public ClientConfig copy() {
        ClientConfig c = new ClientConfig();
        c.namesrvAddr = namesrvAddr;
        c.instanceName = instanceName;
        c.clientIP = clientIP;
        c.pollNameServerInterval = pollNameServerInterval;
        c.heartbeatBrokerInterval = heartbeatBrokerInterval;
        c.persistConsumerOffsetInterval = persistConsumerOffsetInterval;
        c.mqClientApiTimeout = mqClientApiTimeout;
        c.clientCallbackExecutorThreads = clientCallbackExecutorThreads;
        c.maxMessageSize = maxMessageSize;
        c.accessKey = accessKey;
        c.secretKey = secretKey;
        c.tlsEnable = tlsEnable;
        c.tlsTrustCertPath = tlsTrustCertPath;
        c.tlsCertPath = tlsCertPath;
        c.tlsKeyPath = tlsKeyPath;
        c.tlsKeyPassword = tlsKeyPassword;
        c.tlsVerifyHostname = tlsVerifyHostname;
        c.tlsKeyManagers = tlsKeyManagers;
        c.tlsTrustManagers = tlsTrustManagers;
        return c;
    }

    /** Whether two configurations would behave alike when sharing one client instance. */
    public boolean sameConnectionSettings(ClientConfig other) {
        return Objects.equals(namesrvAddr, other.namesrvAddr) && mqClientApiTimeout == other.mqClientApiTimeout
                && Objects.equals(accessKey, other.accessKey) && Objects.equals(secretKey, other.secretKey)
                && tlsEnable == other.tlsEnable && Objects.equals(tlsTrustCertPath, other.tlsTrustCertPath)
                && Objects.equals(tlsCertPath, other.tlsCertPath) && tlsVerifyHostname == other.tlsVerifyHostname
                && tlsKeyManagers == other.tlsKeyManagers && tlsTrustManagers == other.tlsTrustManagers;
    }

    @Override
    public String toString() {
        return "ClientConfig{namesrvAddr=" + namesrvAddr + ", clientId=" + buildClientId() + "}";
    }

    private static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
        return value;
    }

    /** A site-local IPv4 address if there is one, else any non-loopback IPv4, else 127.0.0.1. */
    private static String localAddress() {
        String fallback = null;
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address) {
                        if (address.isSiteLocalAddress()) {
                            return address.getHostAddress();
                        }
                        if (fallback == null) {
                            fallback = address.getHostAddress();
                        }
                    }
                }
            }
        } catch (SocketException e) {
            // no interface list: loopback is the honest answer
        }
        return fallback != null ? fallback : "127.0.0.1";
    }
}
