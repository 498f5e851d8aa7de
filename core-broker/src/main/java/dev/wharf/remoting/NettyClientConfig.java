package dev.wharf.remoting;

import dev.wharf.protocol.RemotingFrameDescriptor;
import java.util.Locale;

/** Settings of a {@link NettyRemotingClient}; property names follow RocketMQ's where they exist. */
public class NettyClientConfig extends NettyEndpointConfig {

    /** The system property that sets {@link #getSyncSpinMicros()}'s default for every client of the JVM. */
    public static final String SYNC_SPIN_PROPERTY = "wharf.client.syncSpinMicros";
    static final int DEFAULT_SYNC_SPIN_MICROS = 1000;
    private static final int MAX_SYNC_SPIN_MICROS = 100_000;

    /**
     * The system property that sets {@link #getSerializeType()}'s default for every client of the JVM; RocketMQ's
     * clients read the same one.
     */
    public static final String SERIALIZE_TYPE_PROPERTY = "rocketmq.serialize.type";
    static final String JSON = "JSON";
    static final String ROCKETMQ = "ROCKETMQ";

    private int connectTimeoutMillis = 3000;
    private int syncSpinMicros = defaultSyncSpinMicros(System.getProperty(SYNC_SPIN_PROPERTY));
    private int serializeType = defaultSerializeType(System.getProperty(SERIALIZE_TYPE_PROPERTY));

    public NettyClientConfig() {
        super(1);
    }

    static int defaultSyncSpinMicros(String property) {
        if (property == null || property.isBlank()) {
            return DEFAULT_SYNC_SPIN_MICROS;
        }
        int value;
        try {
            value = Integer.parseInt(property.trim());
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value < 0 || value > MAX_SYNC_SPIN_MICROS) {
            throw new IllegalArgumentException("The system property " + SYNC_SPIN_PROPERTY + "=" + property
                    + " is not a number of microseconds between 0 and " + MAX_SYNC_SPIN_MICROS
                    + "; set it to 0 to never spin, or remove it for the default " + DEFAULT_SYNC_SPIN_MICROS + ".");
        }
        return value;
    }

    /**
     * How long a synchronous call may spin for its answer before it parks, in microseconds; 0 never spins. Only the
     * JVM's one waiting synchronous caller spins, only on a machine with more than one core, and only on a
     * connection whose previous answer came within this time: a lone producer then sees its answer without a
     * thread wake-up, while busy or slow clients do not burn CPU. The default comes from the system property
     * {@value #SYNC_SPIN_PROPERTY}, else 1000: a durable send on a local disk is answered in a few hundred
     * microseconds.
     */
    public int getSyncSpinMicros() {
        return syncSpinMicros;
    }

    public void setSyncSpinMicros(int syncSpinMicros) {
        if (syncSpinMicros > MAX_SYNC_SPIN_MICROS) {
            throw new IllegalArgumentException("syncSpinMicros must be at most " + MAX_SYNC_SPIN_MICROS + " (0.1 s), not "
                    + syncSpinMicros + "; a longer wait should park");
        }
        this.syncSpinMicros = atLeast("syncSpinMicros", syncSpinMicros, 0);
    }

    /**
     * The header encoding of the requests this client sends: {@code ROCKETMQ} (RocketMQ's binary header, the default)
     * or {@code JSON}. Servers answer in the encoding of the request. The binary header costs about a third of the
     * JSON one to write and read; {@code JSON} is for servers that read only JSON (Wharf brokers before the binary
     * header was read). The default comes from the system property {@value #SERIALIZE_TYPE_PROPERTY}, else
     * {@code ROCKETMQ}.
     */
    public String getSerializeType() {
        return serializeType == RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ ? ROCKETMQ : JSON;
    }

    public void setSerializeType(String serializeType) {
        this.serializeType = serializeTypeCode("serializeType", serializeType);
    }

    /** The header encoding as the frame's serialize-type code. */
    int serializeTypeCode() {
        return serializeType;
    }

    static int defaultSerializeType(String property) {
        return property == null || property.isBlank() ? RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ
                : serializeTypeCode(SERIALIZE_TYPE_PROPERTY, property);
    }

    static int serializeTypeCode(String name, String value) {
        String type = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
        return switch (type) {
            case ROCKETMQ -> RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ;
            case JSON -> RemotingFrameDescriptor.SERIALIZE_TYPE_JSON;
            default -> throw new IllegalArgumentException(name + " is " + (value == null ? "not set" : "'" + value + "'")
                    + ", but must be ROCKETMQ (binary headers) or JSON");
        };
    }

    /** How long a connection attempt may take. */
    public int getConnectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    public void setConnectTimeoutMillis(int connectTimeoutMillis) {
        this.connectTimeoutMillis = atLeast("connectTimeoutMillis", connectTimeoutMillis, 1);
    }
}
