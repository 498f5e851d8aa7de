package dev.wharf.jms.config;

import static dev.wharf.jms.config.ConnectionOptionTable.CLIENT_ID;
import static dev.wharf.jms.config.ConnectionOptionTable.DESERIALIZATION_ALLOW_LIST;
import static dev.wharf.jms.config.ConnectionOptionTable.DESERIALIZATION_DENY_LIST;
import static dev.wharf.jms.config.ConnectionOptionTable.HEARTBEAT_BROKER_INTERVAL;
import static dev.wharf.jms.config.ConnectionOptionTable.INSTANCE_NAME;
import static dev.wharf.jms.config.ConnectionOptionTable.LEASE_TIME;
import static dev.wharf.jms.config.ConnectionOptionTable.MAX_RECONSUME_TIMES;
import static dev.wharf.jms.config.ConnectionOptionTable.PASSWORD;
import static dev.wharf.jms.config.ConnectionOptionTable.PERSIST_CONSUMER_OFFSET_INTERVAL;
import static dev.wharf.jms.config.ConnectionOptionTable.POLL_NAME_SERVER_INTERVAL;
import static dev.wharf.jms.config.ConnectionOptionTable.PRODUCER_GROUP;
import static dev.wharf.jms.config.ConnectionOptionTable.PULL_BATCH_SIZE;
import static dev.wharf.jms.config.ConnectionOptionTable.REDELIVERY_DELAY;
import static dev.wharf.jms.config.ConnectionOptionTable.RETRY_TIMES_WHEN_SEND_FAILED;
import static dev.wharf.jms.config.ConnectionOptionTable.SEND_TIMEOUT;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_CERT_PATH;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_KEY_PASSWORD;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_KEY_PATH;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_TRUST_CERT_PATH;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_VERIFY_HOSTNAME;
import static dev.wharf.jms.config.ConnectionOptionTable.TRANSACTION_BATCH_BYTES;
import static dev.wharf.jms.config.ConnectionOptionTable.TRANSACTION_SEND_WINDOW;
import static dev.wharf.jms.config.ConnectionOptionTable.TRANSACTION_TIMEOUT;
import static dev.wharf.jms.config.ConnectionOptionTable.USER;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.jms.config.ConnectionOption.Listing;
import dev.wharf.jms.message.DeserializationPolicy;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The values of the options of {@link ConnectionOptionTable}, with the typed JavaBean accessors that JNDI, Spring
 * and applications use: one line each, through the table, which holds each option's default, check and
 * documentation. A setter refuses a bad value with an {@link IllegalArgumentException} that names the option, the
 * value and the allowed range. Both the options a connection is opened with ({@link ConnectionOptions}) and the
 * connection factory (whose setters are these) are such holders, so the accessors are written once.
 *
 * <p>Not thread-safe: configure, then share. The serialized form is the settings as text, passwords and key
 * material left out.
 */
public abstract class AbstractConnectionOptions implements Serializable {

    @Serial
    private static final long serialVersionUID = 2L;

    private transient Object[] values = defaults();
    /** Key material given as objects (a Spring Boot SSL bundle); not an option string, so not in the settings. */
    private transient KeyManagerFactory tlsKeyManagers;
    private transient TrustManagerFactory tlsTrustManagers;

    protected AbstractConnectionOptions() {
    }

    /**
     * Called before an option changes; a connection factory refuses changes after its first connection here.
     *
     * @param option the option's name
     * @throws IllegalStateException when the option may not change any more
     */
    protected void beforeChange(String option) {
    }

    /** The option's value. */
    public final <T> T get(ConnectionOption<T> option) {
        return option.type().cast(values[slot(option)]);
    }

    /**
     * Sets an option after checking the value.
     *
     * @throws IllegalArgumentException naming the option when the value is not allowed
     */
    public final <T> void set(ConnectionOption<T> option, T value) {
        int slot = slot(option);
        beforeChange(option.name());
        values[slot] = option.check(value);
    }

    /**
     * Sets the options named in {@code settings} from their text: all of them or, when one is refused, none.
     *
     * @param source names where the settings come from, for the error ("the broker URL ...")
     * @throws IllegalArgumentException naming the setting when a name is not an option (with the closest option
     *                                  as a hint, or what to do for a removed option) or a value is not allowed
     */
    public final void bind(Map<String, String> settings, String source) {
        List<String> unknown = new ArrayList<>();
        Object[] next = values.clone();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String key = e.getKey().strip();
            String retired = ConnectionOptionTable.retiredProblem(key);
            if (retired != null) {
                throw new IllegalArgumentException(retired + " (in " + source + ")");
            }
            ConnectionOption<?> option = ConnectionOptionTable.byName(key);
            if (option == null) {
                unknown.add(key);
            } else {
                next[option.index()] = option.parse(e.getValue());
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(BeanBinder.describeUnknown(unknown, source, new ConnectionOptions()));
        }
        for (ConnectionOption<?> option : ConnectionOptionTable.ALL) {
            if (!Objects.equals(next[option.index()], values[option.index()])) {
                beforeChange(option.name());
            }
        }
        values = next;
    }

    /** Overwrites every option with {@code other}'s. */
    public final void copyFrom(AbstractConnectionOptions other) {
        for (ConnectionOption<?> option : ConnectionOptionTable.ALL) {
            if (!Objects.equals(other.values[option.index()], values[option.index()])) {
                beforeChange(option.name());
            }
        }
        if (other.tlsKeyManagers != tlsKeyManagers || other.tlsTrustManagers != tlsTrustManagers) {
            beforeChange("tlsManagers");
        }
        values = other.values.clone();
        tlsKeyManagers = other.tlsKeyManagers;
        tlsTrustManagers = other.tlsTrustManagers;
    }

    /**
     * The options as text in table order, for JNDI references and logs: passwords never, unset ones not, TLS
     * details only with TLS on.
     */
    public final Map<String, String> toSettings() {
        Map<String, String> out = new LinkedHashMap<>();
        boolean tls = isTls();
        for (ConnectionOption<?> option : ConnectionOptionTable.ALL) {
            Object value = values[option.index()];
            Listing listing = option.listing();
            if (listing == Listing.ALWAYS || listing == Listing.WHEN_SET && value != null
                    || listing == Listing.WITH_TLS && tls) {
                out.put(option.name(), option.format(value));
            }
        }
        return out;
    }

    /** The deserialization policy the two list options describe. */
    public final DeserializationPolicy toDeserializationPolicy() {
        return DeserializationPolicy.of(getDeserializationAllowList(), getDeserializationDenyList());
    }

    /** The option's place in {@link #values}; an option made outside the table has none. */
    private static int slot(ConnectionOption<?> option) {
        int index = option.index();
        if (index < 0 || index >= ConnectionOptionTable.ALL.size() || ConnectionOptionTable.ALL.get(index) != option) {
            throw new IllegalArgumentException("The option " + option.name() + " is not one of ConnectionOptionTable;"
                    + " use the table's constants.");
        }
        return index;
    }

    private static Object[] defaults() {
        Object[] out = new Object[ConnectionOptionTable.ALL.size()];
        for (ConnectionOption<?> option : ConnectionOptionTable.ALL) {
            out[option.index()] = option.defaultValue();
        }
        return out;
    }

    // ---------------------------------------------------------------- accessors (meaning: ConnectionOptionTable)

    public String getClientID() { return get(CLIENT_ID); }
    public void setClientID(String clientID) { set(CLIENT_ID, clientID); }

    public String getProducerGroup() { return get(PRODUCER_GROUP); }
    public void setProducerGroup(String producerGroup) { set(PRODUCER_GROUP, producerGroup); }

    public String getInstanceName() { return get(INSTANCE_NAME); }
    public void setInstanceName(String instanceName) { set(INSTANCE_NAME, instanceName); }

    public int getMaxReconsumeTimes() { return get(MAX_RECONSUME_TIMES); }
    public void setMaxReconsumeTimes(int maxReconsumeTimes) { set(MAX_RECONSUME_TIMES, maxReconsumeTimes); }

    public long getRedeliveryDelay() { return get(REDELIVERY_DELAY); }
    public void setRedeliveryDelay(long redeliveryDelay) { set(REDELIVERY_DELAY, redeliveryDelay); }

    public long getLeaseTime() { return get(LEASE_TIME); }
    public void setLeaseTime(long leaseTime) { set(LEASE_TIME, leaseTime); }

    public long getTransactionTimeout() { return get(TRANSACTION_TIMEOUT); }
    public void setTransactionTimeout(long transactionTimeout) { set(TRANSACTION_TIMEOUT, transactionTimeout); }

    public long getSendTimeout() { return get(SEND_TIMEOUT); }
    public void setSendTimeout(long sendTimeout) { set(SEND_TIMEOUT, sendTimeout); }

    public int getRetryTimesWhenSendFailed() { return get(RETRY_TIMES_WHEN_SEND_FAILED); }
    public void setRetryTimesWhenSendFailed(int retries) { set(RETRY_TIMES_WHEN_SEND_FAILED, retries); }

    public int getPullBatchSize() { return get(PULL_BATCH_SIZE); }
    public void setPullBatchSize(int pullBatchSize) { set(PULL_BATCH_SIZE, pullBatchSize); }

    public long getPollNameServerInterval() { return get(POLL_NAME_SERVER_INTERVAL); }
    public void setPollNameServerInterval(long millis) { set(POLL_NAME_SERVER_INTERVAL, millis); }

    public long getHeartbeatBrokerInterval() { return get(HEARTBEAT_BROKER_INTERVAL); }
    public void setHeartbeatBrokerInterval(long millis) { set(HEARTBEAT_BROKER_INTERVAL, millis); }

    public long getPersistConsumerOffsetInterval() { return get(PERSIST_CONSUMER_OFFSET_INTERVAL); }
    public void setPersistConsumerOffsetInterval(long millis) { set(PERSIST_CONSUMER_OFFSET_INTERVAL, millis); }

    public String getDeserializationAllowList() { return get(DESERIALIZATION_ALLOW_LIST); }
    public void setDeserializationAllowList(String list) { set(DESERIALIZATION_ALLOW_LIST, list); }

    public String getDeserializationDenyList() { return get(DESERIALIZATION_DENY_LIST); }
    public void setDeserializationDenyList(String list) { set(DESERIALIZATION_DENY_LIST, list); }

    public int getTransactionSendWindow() { return get(TRANSACTION_SEND_WINDOW); }
    public void setTransactionSendWindow(int messages) { set(TRANSACTION_SEND_WINDOW, messages); }

    public int getTransactionBatchBytes() { return get(TRANSACTION_BATCH_BYTES); }
    public void setTransactionBatchBytes(int bytes) { set(TRANSACTION_BATCH_BYTES, bytes); }

    public String getUser() { return get(USER); }
    public void setUser(String user) { set(USER, user); }

    public String getPassword() { return get(PASSWORD); }
    public void setPassword(String password) { set(PASSWORD, password); }

    public boolean isTls() { return get(TLS); }
    public void setTls(boolean tls) { set(TLS, tls); }

    public String getTlsTrustCertPath() { return get(TLS_TRUST_CERT_PATH); }
    public void setTlsTrustCertPath(String path) { set(TLS_TRUST_CERT_PATH, path); }

    public String getTlsCertPath() { return get(TLS_CERT_PATH); }
    public void setTlsCertPath(String path) { set(TLS_CERT_PATH, path); }

    public String getTlsKeyPath() { return get(TLS_KEY_PATH); }
    public void setTlsKeyPath(String path) { set(TLS_KEY_PATH, path); }

    public String getTlsKeyPassword() { return get(TLS_KEY_PASSWORD); }
    public void setTlsKeyPassword(String password) { set(TLS_KEY_PASSWORD, password); }

    public boolean isTlsVerifyHostname() { return get(TLS_VERIFY_HOSTNAME); }
    public void setTlsVerifyHostname(boolean verify) { set(TLS_VERIFY_HOSTNAME, verify); }

    /**
     * TLS key material made by the application (a Spring Boot SSL bundle) instead of the {@code tls*Path} files;
     * when either is set, TLS uses these and ignores the paths. Not part of the settings or the serialized form.
     *
     * @param keys  the client certificate for mutual TLS, or null for none
     * @param trust whom the client trusts, or null for the JDK's default authorities
     */
    public void setTlsManagers(KeyManagerFactory keys, TrustManagerFactory trust) {
        beforeChange("tlsManagers");
        this.tlsKeyManagers = keys;
        this.tlsTrustManagers = trust;
    }

    public KeyManagerFactory getTlsKeyManagers() { return tlsKeyManagers; }

    public TrustManagerFactory getTlsTrustManagers() { return tlsTrustManagers; }

    // ---------------------------------------------------------------- serialized form: the settings as text

    @Serial
    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        Map<String, String> settings = new LinkedHashMap<>();
        for (ConnectionOption<?> option : ConnectionOptionTable.ALL) {
            Object value = values[option.index()];
            if (!option.isSecret() && value != null) {
                settings.put(option.name(), option.format(value));
            }
        }
        out.writeObject(settings);
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        values = defaults();
        if (!(in.readObject() instanceof Map<?, ?> settings)) {
            throw new InvalidObjectException("Serialized connection options without their settings.");
        }
        Map<String, String> text = new LinkedHashMap<>();
        settings.forEach((k, v) -> text.put(String.valueOf(k), String.valueOf(v)));
        try {
            bind(text, "serialized connection options");
        } catch (IllegalArgumentException e) {
            InvalidObjectException bad = new InvalidObjectException(e.getMessage());
            bad.initCause(e);
            throw bad;
        }
    }
}
