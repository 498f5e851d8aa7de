package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.store.FlushDiskType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of Wharf ({@code wharf.*}). Spring's own JMS settings ({@code spring.jms.*}: pub-sub
 * domain, listener concurrency, template QoS and delivery delay, session caching) apply unchanged on top.
 */
@ConfigurationProperties("wharf")
public class WharfProperties {

    /**
     * Broker URL: "wharf://host:port[,host:port]" (NameServer addresses) or "vm://name" (a broker in this JVM). When
     * unset, an embedded broker starts in the application (see wharf.embedded).
     */
    private String url;

    /**
     * Producer group of the application's producers; the broker sends transaction check-backs to a live member of
     * it. Defaults to "<spring.application.name>-producer". Applications with different databases must not share one.
     */
    private String producerGroup;

    /** Redeliveries of a message before it goes to the dead-letter queue "%DLQ%<queue>". Default 16. */
    private Integer maxReconsumeTimes;

    /**
     * Delay before a message whose listener failed (or whose session rolled back) is delivered again. Default 0:
     * at once.
     */
    private Duration redeliveryDelay;

    /** How long a send waits for the broker's answer. Default 3s. */
    private Duration sendTimeout;

    /**
     * Further connection-factory options by name (e.g. pullBatchSize, clientID, leaseTime), as listed in the JMS
     * option table of the README (dev.wharf.jms.config.ConnectionOptionTable). An unknown name fails start-up.
     */
    private Map<String, String> options = new LinkedHashMap<>();

    /**
     * User the application's connections sign their requests as, on servers with authentication on
     * (aclEnable / authenticationEnabled). Unset: requests are not signed.
     */
    private String user;

    /** Password of wharf.user; only a key derived from it ever leaves the application's memory. */
    private String password;

    private final Tls tls = new Tls();

    private final Embedded embedded = new Embedded();

    private final Transaction transaction = new Transaction();

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getProducerGroup() {
        return producerGroup;
    }

    public void setProducerGroup(String producerGroup) {
        this.producerGroup = producerGroup;
    }

    public Integer getMaxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    public void setMaxReconsumeTimes(Integer maxReconsumeTimes) {
        this.maxReconsumeTimes = maxReconsumeTimes;
    }

    public Duration getRedeliveryDelay() {
        return redeliveryDelay;
    }

    public void setRedeliveryDelay(Duration redeliveryDelay) {
        this.redeliveryDelay = redeliveryDelay;
    }

    public Duration getSendTimeout() {
        return sendTimeout;
    }

    public void setSendTimeout(Duration sendTimeout) {
        this.sendTimeout = sendTimeout;
    }

    public Map<String, String> getOptions() {
        return options;
    }

    public void setOptions(Map<String, String> options) {
        this.options = options;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public Tls getTls() {
        return tls;
    }

    public Embedded getEmbedded() {
        return embedded;
    }

    public Transaction getTransaction() {
        return transaction;
    }

    /** The broker started inside the application when no {@code wharf.url} is set. */
    public static class Embedded {

        /** Whether to start a broker inside the application when wharf.url is not set. */
        private boolean enabled = true;

        /**
         * Folder of the embedded broker's store. Default: ${user.home}/.wharf/<spring.application.name or
         * "wharf">/store.
         */
        private Path storeDir;

        /**
         * Port of the embedded NameServer on 127.0.0.1; other processes (the wharf command line, other
         * applications) reach the broker through it. 0 picks a free port, known only to this application.
         */
        private int port = 0;

        /** When a sent message counts as stored: ASYNC_FLUSH (page cache) or SYNC_FLUSH (forced to disk). */
        private FlushDiskType flushDiskType = FlushDiskType.ASYNC_FLUSH;

        /**
         * Further broker settings by their RocketMQ names (e.g. transactionCheckInterval, messageDelayLevel,
         * diskMaxUsedSpaceRatio, listenPort). An unknown name fails start-up.
         */
        private Map<String, String> broker = new LinkedHashMap<>();

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Path getStoreDir() {
            return storeDir;
        }

        public void setStoreDir(Path storeDir) {
            this.storeDir = storeDir;
        }

        public int getPort() {
            return port;
        }

        public void setPort(int port) {
            this.port = port;
        }

        public FlushDiskType getFlushDiskType() {
            return flushDiskType;
        }

        public void setFlushDiskType(FlushDiskType flushDiskType) {
            this.flushDiskType = flushDiskType;
        }

        public Map<String, String> getBroker() {
            return broker;
        }

        public void setBroker(Map<String, String> broker) {
            this.broker = broker;
        }
    }

    /** Messages sent inside Spring-managed database transactions. */
    public static class Transaction {

        /**
         * Whether messages sent through JmsTemplate inside a Spring-managed database transaction commit with it, backed
         * by a transaction-log table. Default: true when the application has a DataSource.
         */
        private Boolean enabled;

        /**
         * Age after which a check-back rolls back a transaction whose log row is absent. Must exceed the longest
         * database transaction that sends messages.
         */
        private Duration rollbackAfter = Duration.ofSeconds(60);

        /** Whether to create the transaction-log table at start-up when it is absent. */
        private boolean initializeSchema = true;

        /** Name of the transaction-log table. */
        private String table = "wharf_tx_log";

        /** How long transaction-log rows are kept; far longer than the broker keeps asking (minutes). */
        private Duration retention = Duration.ofDays(7);

        /** How often transaction-log rows older than the retention are deleted. */
        private Duration cleanupInterval = Duration.ofHours(1);

        /** Rows deleted per statement (and per short database transaction) by the clean-up. */
        private int cleanupBatchSize = 1000;

        /**
         * Whether the messages of a database transaction are streamed to the broker and stored durably in one flush
         * just before the database commits (a flush the broker refuses rolls the database transaction back). When
         * false, each send waits for the broker and, under SYNC_FLUSH, for its own disk force.
         */
        private boolean flushBeforeCommit = true;

        public boolean isFlushBeforeCommit() {
            return flushBeforeCommit;
        }

        public void setFlushBeforeCommit(boolean flushBeforeCommit) {
            this.flushBeforeCommit = flushBeforeCommit;
        }

        public Boolean getEnabled() {
            return enabled;
        }

        public void setEnabled(Boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getRollbackAfter() {
            return rollbackAfter;
        }

        public void setRollbackAfter(Duration rollbackAfter) {
            this.rollbackAfter = rollbackAfter;
        }

        public boolean isInitializeSchema() {
            return initializeSchema;
        }

        public void setInitializeSchema(boolean initializeSchema) {
            this.initializeSchema = initializeSchema;
        }

        public String getTable() {
            return table;
        }

        public void setTable(String table) {
            this.table = table;
        }

        public Duration getRetention() {
            return retention;
        }

        public void setRetention(Duration retention) {
            this.retention = retention;
        }

        public Duration getCleanupInterval() {
            return cleanupInterval;
        }

        public void setCleanupInterval(Duration cleanupInterval) {
            this.cleanupInterval = cleanupInterval;
        }

        public int getCleanupBatchSize() {
            return cleanupBatchSize;
        }

        public void setCleanupBatchSize(int cleanupBatchSize) {
            this.cleanupBatchSize = cleanupBatchSize;
        }
    }

    /** TLS of the connections to the NameServers and brokers ({@code wharf.tls.*}). */
    public static class Tls {

        /** Whether connections speak TLS. */
        private boolean enabled;

        /** PEM certificates trusted as the servers' (a private CA, a self-signed server); unset: the JDK's. */
        private String trustCertPath;

        /** Client certificate for mutual TLS: PEM (with key-path) or a PKCS#12 .p12 key store. */
        private String certPath;

        /** PKCS#8 PEM private key of cert-path. */
        private String keyPath;

        /** Password of the client key or key store. */
        private String keyPassword;

        /** Whether a server's certificate must name the host connected to. */
        private boolean verifyHostname = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getTrustCertPath() {
            return trustCertPath;
        }

        public void setTrustCertPath(String trustCertPath) {
            this.trustCertPath = trustCertPath;
        }

        public String getCertPath() {
            return certPath;
        }

        public void setCertPath(String certPath) {
            this.certPath = certPath;
        }

        public String getKeyPath() {
            return keyPath;
        }

        public void setKeyPath(String keyPath) {
            this.keyPath = keyPath;
        }

        public String getKeyPassword() {
            return keyPassword;
        }

        public void setKeyPassword(String keyPassword) {
            this.keyPassword = keyPassword;
        }

        public boolean isVerifyHostname() {
            return verifyHostname;
        }

        public void setVerifyHostname(boolean verifyHostname) {
            this.verifyHostname = verifyHostname;
        }
    }

    private final Ssl ssl = new Ssl();

    public Ssl getSsl() {
        return ssl;
    }

    /** Spring Boot SSL bundles for the client's TLS ({@code wharf.ssl.*}). */
    public static class Ssl {

        /**
         * Name of a Spring Boot SSL bundle (spring.ssl.bundle.pem.NAME or spring.ssl.bundle.jks.NAME) whose trust
         * store, and key store for mutual TLS, the connections use. Setting it turns TLS on; it replaces
         * wharf.tls.trust-cert-path, cert-path and key-path (wharf.tls.verify-hostname still applies).
         */
        private String bundle;

        public String getBundle() {
            return bundle;
        }

        public void setBundle(String bundle) {
            this.bundle = bundle;
        }
    }
}
