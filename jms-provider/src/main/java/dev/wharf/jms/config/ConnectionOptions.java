package dev.wharf.jms.config;

import dev.wharf.common.TopicValidator;
import dev.wharf.jms.message.DeserializationPolicy;
import java.io.Serial;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The options of a connection factory, as JavaBean properties whose names are also the URL parameter names
 * ({@code wharf://host:9876?maxReconsumeTimes=3}). Every setter checks its value and refuses a bad one with an
 * {@link IllegalArgumentException} that names the option, the value and the allowed range. Not thread-safe:
 * configure a factory before sharing it.
 */
public class ConnectionOptions implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    public static final String DEFAULT_PRODUCER_GROUP = "WHARF_JMS_PRODUCER";
    /** Longest client id, so that the consumer groups derived from it stay within the name limit. */
    public static final int MAX_CLIENT_ID_LENGTH = 64;

    private String clientID;
    private String producerGroup = DEFAULT_PRODUCER_GROUP;
    private String instanceName;
    private int maxReconsumeTimes = 16;
    private long redeliveryDelay;
    private long leaseTime = 60_000;
    private long transactionTimeout = 300_000;
    private long sendTimeout = 3000;
    private int retryTimesWhenSendFailed = 2;
    private int consumeThreads = 20;
    private int pullBatchSize = 32;
    private int pullThresholdForQueue = 1000;
    private long pollNameServerInterval = 30_000;
    private long heartbeatBrokerInterval = 30_000;
    private long persistConsumerOffsetInterval = 5_000;
    private String deserializationAllowList = "";
    private String deserializationDenyList = "";
    private int transactionSendWindow = 64;
    private String user;
    private transient String password;
    private boolean tls;
    private String tlsTrustCertPath = "";
    private String tlsCertPath = "";
    private String tlsKeyPath = "";
    private transient String tlsKeyPassword = "";
    private boolean tlsVerifyHostname = true;
    /** Key material given as objects (a Spring Boot SSL bundle); not an option string, so not in toSettings. */
    private transient KeyManagerFactory tlsKeyManagers;
    private transient TrustManagerFactory tlsTrustManagers;

    public ConnectionOptions() {
    }

    /** A copy of {@code other}. */
    public ConnectionOptions(ConnectionOptions other) {
        copyFrom(other);
    }

    /** Overwrites every option with {@code other}'s. */
    public final void copyFrom(ConnectionOptions other) {
        clientID = other.clientID;
        producerGroup = other.producerGroup;
        instanceName = other.instanceName;
        maxReconsumeTimes = other.maxReconsumeTimes;
        redeliveryDelay = other.redeliveryDelay;
        leaseTime = other.leaseTime;
        transactionTimeout = other.transactionTimeout;
        sendTimeout = other.sendTimeout;
        retryTimesWhenSendFailed = other.retryTimesWhenSendFailed;
        consumeThreads = other.consumeThreads;
        pullBatchSize = other.pullBatchSize;
        pullThresholdForQueue = other.pullThresholdForQueue;
        pollNameServerInterval = other.pollNameServerInterval;
        heartbeatBrokerInterval = other.heartbeatBrokerInterval;
        persistConsumerOffsetInterval = other.persistConsumerOffsetInterval;
        deserializationAllowList = other.deserializationAllowList;
        deserializationDenyList = other.deserializationDenyList;
        transactionSendWindow = other.transactionSendWindow;
        user = other.user;
        password = other.password;
        tls = other.tls;
        tlsTrustCertPath = other.tlsTrustCertPath;
        tlsCertPath = other.tlsCertPath;
        tlsKeyPath = other.tlsKeyPath;
        tlsKeyPassword = other.tlsKeyPassword;
        tlsVerifyHostname = other.tlsVerifyHostname;
        tlsKeyManagers = other.tlsKeyManagers;
        tlsTrustManagers = other.tlsTrustManagers;
    }

    /** The options that differ from null as strings, in a fixed order (for JNDI references and logs). */
    public Map<String, String> toSettings() {
        Map<String, String> out = new LinkedHashMap<>();
        if (clientID != null) {
            out.put("clientID", clientID);
        }
        out.put("producerGroup", producerGroup);
        if (instanceName != null) {
            out.put("instanceName", instanceName);
        }
        out.put("maxReconsumeTimes", Integer.toString(maxReconsumeTimes));
        out.put("redeliveryDelay", Long.toString(redeliveryDelay));
        out.put("leaseTime", Long.toString(leaseTime));
        out.put("transactionTimeout", Long.toString(transactionTimeout));
        out.put("sendTimeout", Long.toString(sendTimeout));
        out.put("retryTimesWhenSendFailed", Integer.toString(retryTimesWhenSendFailed));
        out.put("consumeThreads", Integer.toString(consumeThreads));
        out.put("pullBatchSize", Integer.toString(pullBatchSize));
        out.put("pullThresholdForQueue", Integer.toString(pullThresholdForQueue));
        out.put("pollNameServerInterval", Long.toString(pollNameServerInterval));
        out.put("heartbeatBrokerInterval", Long.toString(heartbeatBrokerInterval));
        out.put("persistConsumerOffsetInterval", Long.toString(persistConsumerOffsetInterval));
        out.put("deserializationAllowList", deserializationAllowList);
        out.put("deserializationDenyList", deserializationDenyList);
        out.put("transactionSendWindow", Integer.toString(transactionSendWindow));
        // passwords stay out: this map ends up in logs and JNDI references
        if (user != null) {
            out.put("user", user);
        }
        if (tls) {
            out.put("tls", "true");
            out.put("tlsTrustCertPath", tlsTrustCertPath);
            out.put("tlsCertPath", tlsCertPath);
            out.put("tlsKeyPath", tlsKeyPath);
            out.put("tlsVerifyHostname", Boolean.toString(tlsVerifyHostname));
        }
        return out;
    }

    /** The deserialization policy the two list options describe. */
    public DeserializationPolicy toDeserializationPolicy() {
        return DeserializationPolicy.of(deserializationAllowList, deserializationDenyList);
    }

    /**
     * Checks a client id.
     *
     * @return null when it is valid, else a sentence saying what is wrong
     */
    public static String clientIdProblem(String clientID) {
        if (clientID == null || clientID.isEmpty()) {
            return "The client id is empty; give 1 to " + MAX_CLIENT_ID_LENGTH
                    + " letters, digits, '_', '-' or '.', or leave it unset.";
        }
        if (clientID.length() > MAX_CLIENT_ID_LENGTH) {
            return "The client id \"" + clientID.substring(0, 20) + "...\" has " + clientID.length()
                    + " characters; the limit is " + MAX_CLIENT_ID_LENGTH + ".";
        }
        for (int i = 0; i < clientID.length(); i++) {
            char c = clientID.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128) && c != '_' && c != '-' && c != '.') {
                return "The client id \"" + clientID + "\" contains '" + c + "' at position " + (i + 1)
                        + "; use letters, digits, '_', '-' and '.' (durable subscription names are derived from it).";
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- options

    /** The client id every connection of the factory gets (JMS administratively configured client id); null = none. */
    public String getClientID() {
        return clientID;
    }

    public void setClientID(String clientID) {
        String problem = clientID == null ? null : clientIdProblem(clientID);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        this.clientID = clientID;
    }

    /** The producer group of every producer of the factory; transaction check-backs go to a live member of it. */
    public String getProducerGroup() {
        return producerGroup;
    }

    public void setProducerGroup(String producerGroup) {
        String problem = TopicValidator.checkGroup(producerGroup);
        if (problem != null) {
            throw new IllegalArgumentException("producerGroup: " + problem);
        }
        this.producerGroup = producerGroup;
    }

    /** Distinguishes several client instances in one process; null lets the client choose (process id). */
    public String getInstanceName() {
        return instanceName;
    }

    public void setInstanceName(String instanceName) {
        if (instanceName != null && (instanceName.isBlank()
                || instanceName.chars().anyMatch(c -> Character.isISOControl(c) || c == '@'))) {
            throw new IllegalArgumentException("instanceName \"" + instanceName + "\" is blank or contains control"
                    + " characters or '@'; give a plain name or leave it unset.");
        }
        this.instanceName = instanceName;
    }

    /** Redeliveries of a message before it goes to the dead-letter queue {@code %DLQ%group}. */
    public int getMaxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    public void setMaxReconsumeTimes(int maxReconsumeTimes) {
        atLeast("maxReconsumeTimes", maxReconsumeTimes, 0, "redeliveries before the dead-letter queue");
        this.maxReconsumeTimes = maxReconsumeTimes;
    }

    /**
     * Milliseconds before a message rolled back or recovered is delivered again; 0 redelivers it at once to the
     * same consumer, more sends it through the broker's retry topic.
     */
    public long getRedeliveryDelay() {
        return redeliveryDelay;
    }

    public void setRedeliveryDelay(long redeliveryDelay) {
        atLeast("redeliveryDelay", redeliveryDelay, 0, "milliseconds");
        this.redeliveryDelay = redeliveryDelay;
    }

    /**
     * Milliseconds a consumer's hold on a popped message lasts before the broker hands it to another consumer;
     * held messages are renewed while the connection lives, so this only matters for a process that hangs (a
     * closed or dead connection gives its messages back at once).
     */
    public long getLeaseTime() {
        return leaseTime;
    }

    public void setLeaseTime(long leaseTime) {
        between("leaseTime", leaseTime, 1_000, 86_400_000);
        this.leaseTime = leaseTime;
    }

    /**
     * Milliseconds after which a transaction of another process that the broker asks about (the process died
     * before committing) is presumed abandoned and rolled back by the default check-back answer; transactions of
     * this process are answered from what the process knows, at once.
     */
    public long getTransactionTimeout() {
        return transactionTimeout;
    }

    public void setTransactionTimeout(long transactionTimeout) {
        atLeast("transactionTimeout", transactionTimeout, 0, "milliseconds");
        this.transactionTimeout = transactionTimeout;
    }

    /** Milliseconds a send waits for the broker's answer. */
    public long getSendTimeout() {
        return sendTimeout;
    }

    public void setSendTimeout(long sendTimeout) {
        atLeast("sendTimeout", sendTimeout, 1, "milliseconds");
        this.sendTimeout = sendTimeout;
    }

    /** Further attempts of a failed send (to another broker when there is one). */
    public int getRetryTimesWhenSendFailed() {
        return retryTimesWhenSendFailed;
    }

    public void setRetryTimesWhenSendFailed(int retryTimesWhenSendFailed) {
        atLeast("retryTimesWhenSendFailed", retryTimesWhenSendFailed, 0, "retries");
        this.retryTimesWhenSendFailed = retryTimesWhenSendFailed;
    }

    /**
     * Not used by the connections of this version: every session delivers to its listeners on a thread of its own
     * (Jakarta Messaging serializes a session's listeners anyway). Kept so that configurations setting it stay
     * valid.
     */
    public int getConsumeThreads() {
        return consumeThreads;
    }

    public void setConsumeThreads(int consumeThreads) {
        between("consumeThreads", consumeThreads, 1, 1000);
        this.consumeThreads = consumeThreads;
    }

    /**
     * Messages a consumer takes from the broker per request, and so the most it holds before the application
     * received them (at most 32 are used). Smaller shares a queue more evenly among consumers; larger is faster.
     */
    public int getPullBatchSize() {
        return pullBatchSize;
    }

    public void setPullBatchSize(int pullBatchSize) {
        between("pullBatchSize", pullBatchSize, 1, 1024);
        this.pullBatchSize = pullBatchSize;
    }

    /**
     * Not used by the connections of this version: a consumer holds at most {@code pullBatchSize} messages. Kept so
     * that configurations setting it stay valid.
     */
    public int getPullThresholdForQueue() {
        return pullThresholdForQueue;
    }

    public void setPullThresholdForQueue(int pullThresholdForQueue) {
        between("pullThresholdForQueue", pullThresholdForQueue, 1, 65535);
        this.pullThresholdForQueue = pullThresholdForQueue;
    }

    /** Milliseconds between route refreshes from the NameServer. */
    public long getPollNameServerInterval() {
        return pollNameServerInterval;
    }

    public void setPollNameServerInterval(long pollNameServerInterval) {
        atLeast("pollNameServerInterval", pollNameServerInterval, 10, "milliseconds");
        this.pollNameServerInterval = pollNameServerInterval;
    }

    /** Milliseconds between heartbeats to the brokers. */
    public long getHeartbeatBrokerInterval() {
        return heartbeatBrokerInterval;
    }

    public void setHeartbeatBrokerInterval(long heartbeatBrokerInterval) {
        atLeast("heartbeatBrokerInterval", heartbeatBrokerInterval, 10, "milliseconds");
        this.heartbeatBrokerInterval = heartbeatBrokerInterval;
    }

    /**
     * Milliseconds between commits of consumed offsets by the low-level client; JMS consumers acknowledge each
     * message on the broker instead, so this matters only for clients sharing the connection's settings.
     */
    public long getPersistConsumerOffsetInterval() {
        return persistConsumerOffsetInterval;
    }

    public void setPersistConsumerOffsetInterval(long persistConsumerOffsetInterval) {
        atLeast("persistConsumerOffsetInterval", persistConsumerOffsetInterval, 10, "milliseconds");
        this.persistConsumerOffsetInterval = persistConsumerOffsetInterval;
    }

    /**
     * Comma-separated packages or classes that object messages may deserialize besides the JDK's {@code java.lang},
     * {@code java.util}, {@code java.time} and {@code java.math} (always trusted); empty (the default) trusts only
     * those, {@code *} every class, which is only safe when every sender is trusted. See
     * {@link DeserializationPolicy}.
     */
    public String getDeserializationAllowList() {
        return deserializationAllowList;
    }

    public void setDeserializationAllowList(String deserializationAllowList) {
        String list = deserializationAllowList == null ? "" : deserializationAllowList.strip();
        DeserializationPolicy.of(list, deserializationDenyList);
        this.deserializationAllowList = list;
    }

    /** Comma-separated packages or classes that object messages must never deserialize; wins over the allow list. */
    public String getDeserializationDenyList() {
        return deserializationDenyList;
    }

    public void setDeserializationDenyList(String deserializationDenyList) {
        String list = deserializationDenyList == null ? "" : deserializationDenyList.strip();
        DeserializationPolicy.of(deserializationAllowList, list);
        this.deserializationDenyList = list;
    }

    private static void atLeast(String option, long value, long min, String unit) {
        if (value < min) {
            throw new IllegalArgumentException(option + " must be at least " + min + " (" + unit + "), not "
                    + value + ".");
        }
    }

    private static void between(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " must be between " + min + " and " + max + ", not "
                    + value + ".");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnectionOptions other && other.toSettings().equals(toSettings());
    }

    @Override
    public int hashCode() {
        return toSettings().hashCode();
    }

    @Override
    public String toString() {
        return "ConnectionOptions" + toSettings();
    }

    /**
     * Messages a transacted session sends ahead without waiting for the broker's answers: they are checked and
     * made durable at the commit, which fails with TransactionRolledBackException (nothing of the transaction
     * visible) when one of them was not stored. 0 makes every send wait for its answer and the disk, as the
     * session does anyway for a transaction a {@code TransactionLifecycleListener} may commit by check-back.
     */
    public int getTransactionSendWindow() {
        return transactionSendWindow;
    }

    public void setTransactionSendWindow(int transactionSendWindow) {
        between("transactionSendWindow", transactionSendWindow, 0, 4096);
        this.transactionSendWindow = transactionSendWindow;
    }

    // ---------------------------------------------------------------- security

    /**
     * The user connections sign their requests as when {@code createConnection()} is called without one; null:
     * unsigned (a server with authentication on then refuses the connection with a JMSSecurityException).
     */
    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user == null || user.isBlank() ? null : user.trim();
    }

    /** The password of {@link #getUser()}; never logged, never part of a JNDI reference or of serialized state. */
    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    /** Whether connections to NameServers and brokers speak TLS. */
    public boolean isTls() {
        return tls;
    }

    public void setTls(boolean tls) {
        this.tls = tls;
    }

    /** PEM certificates trusted as the servers' (a private CA, a self-signed server); empty: the JDK's authorities. */
    public String getTlsTrustCertPath() {
        return tlsTrustCertPath;
    }

    public void setTlsTrustCertPath(String tlsTrustCertPath) {
        this.tlsTrustCertPath = tlsTrustCertPath == null ? "" : tlsTrustCertPath.trim();
    }

    /** This client's certificate for mutual TLS: PEM (with {@code tlsKeyPath}) or a PKCS#12 .p12 key store. */
    public String getTlsCertPath() {
        return tlsCertPath;
    }

    public void setTlsCertPath(String tlsCertPath) {
        this.tlsCertPath = tlsCertPath == null ? "" : tlsCertPath.trim();
    }

    /** The PKCS#8 PEM private key of {@code tlsCertPath}. */
    public String getTlsKeyPath() {
        return tlsKeyPath;
    }

    public void setTlsKeyPath(String tlsKeyPath) {
        this.tlsKeyPath = tlsKeyPath == null ? "" : tlsKeyPath.trim();
    }

    /** Password of the client key or key store; empty for none. Never logged. */
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
     * TLS key material made by the application (a Spring Boot SSL bundle) instead of the {@code tls*Path} files;
     * when either is set, TLS uses these and ignores the paths. Not part of a JNDI reference.
     *
     * @param keys  the client certificate for mutual TLS, or null for none
     * @param trust whom the client trusts, or null for the JDK's default authorities
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
}
