package dev.wharf.jms.config;

import dev.wharf.common.TopicValidator;
import dev.wharf.jms.config.ConnectionOption.Listing;
import dev.wharf.jms.message.DeserializationPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Every option of a connection factory, declared once: name, type, default, check and documentation. The JavaBean
 * accessors ({@link AbstractConnectionOptions}), the URL and JNDI bindings, the settings map, the Spring Boot
 * starter's {@code wharf.*} binding and the README's option table are all made from this table; an option added
 * here needs one typed accessor pair there and nothing else.
 *
 * <p>The order is the order of settings maps and of the README table.
 */
public final class ConnectionOptionTable {

    /** Longest client id, so that the consumer groups derived from it stay within the name limit. */
    public static final int MAX_CLIENT_ID_LENGTH = 64;
    public static final String DEFAULT_PRODUCER_GROUP = "WHARF_JMS_PRODUCER";

    private static final List<ConnectionOption<?>> DECLARED = new ArrayList<>();

    public static final ConnectionOption<String> CLIENT_ID = string("clientID", null,
            v -> v == null ? null : refuse(clientIdProblem(v), v), Listing.WHEN_SET,
            "The client id every connection of the factory gets (durable subscriptions are named after it); unset:"
            + " none.");
    public static final ConnectionOption<String> PRODUCER_GROUP = string("producerGroup", DEFAULT_PRODUCER_GROUP,
            v -> refuse(problem("producerGroup: ", TopicValidator.checkGroup(v)), v), Listing.ALWAYS,
            "The producer group of the factory's producers; transaction check-backs go to a live member of it.");
    public static final ConnectionOption<String> INSTANCE_NAME = string("instanceName", null,
            ConnectionOptionTable::checkInstanceName, Listing.WHEN_SET,
            "Tells several client instances of one process apart; unset: the client chooses (process id).");
    public static final ConnectionOption<Integer> MAX_RECONSUME_TIMES = integer("maxReconsumeTimes", 16,
            atLeast("maxReconsumeTimes", 0, "redeliveries before the dead-letter queue"),
            "Redeliveries of a message before it goes to the dead-letter queue `%DLQ%group`.");
    public static final ConnectionOption<Long> REDELIVERY_DELAY = longValue("redeliveryDelay", 0L,
            atLeast("redeliveryDelay", 0, "milliseconds"),
            "Milliseconds before a rolled-back or recovered message is delivered again; 0: at once, to the same"
            + " consumer; more: through the broker's retry topic.");
    public static final ConnectionOption<Long> LEASE_TIME = longValue("leaseTime", 60_000L,
            between("leaseTime", 1_000, 86_400_000),
            "Milliseconds a consumer's hold on a message lasts before the broker gives it to another consumer; renewed"
            + " while the connection lives, so it matters only for a hung process.");
    public static final ConnectionOption<Long> TRANSACTION_TIMEOUT = longValue("transactionTimeout", 300_000L,
            atLeast("transactionTimeout", 0, "milliseconds"),
            "Milliseconds after which another process's transaction the broker asks about is presumed abandoned and"
            + " rolled back by the default check-back answer.");
    public static final ConnectionOption<Long> SEND_TIMEOUT = longValue("sendTimeout", 3_000L,
            atLeast("sendTimeout", 1, "milliseconds"),
            "Milliseconds a send waits for the broker's answer.");
    public static final ConnectionOption<Integer> RETRY_TIMES_WHEN_SEND_FAILED = integer("retryTimesWhenSendFailed",
            2, atLeast("retryTimesWhenSendFailed", 0, "retries"),
            "Further attempts of a failed send (to another broker when there is one).");
    public static final ConnectionOption<Integer> PULL_BATCH_SIZE = integer("pullBatchSize", 256,
            between("pullBatchSize", 1, 1024),
            "Most messages a consumer takes from the broker per request, and so the most it holds before the"
            + " application receives them (at most 256 are used); it starts at 32 and asks for more only while the"
            + " application waits on the broker; smaller shares a queue more evenly.");
    public static final ConnectionOption<Long> POLL_NAME_SERVER_INTERVAL = longValue("pollNameServerInterval",
            30_000L, atLeast("pollNameServerInterval", 10, "milliseconds"),
            "Milliseconds between route refreshes from the NameServer.");
    public static final ConnectionOption<Long> HEARTBEAT_BROKER_INTERVAL = longValue("heartbeatBrokerInterval",
            30_000L, atLeast("heartbeatBrokerInterval", 10, "milliseconds"),
            "Milliseconds between heartbeats to the brokers.");
    public static final ConnectionOption<Long> PERSIST_CONSUMER_OFFSET_INTERVAL = longValue(
            "persistConsumerOffsetInterval", 5_000L, atLeast("persistConsumerOffsetInterval", 10, "milliseconds"),
            "Milliseconds between offset commits of the low-level client (JMS consumers acknowledge each message on"
            + " the broker instead).");
    public static final ConnectionOption<String> DESERIALIZATION_ALLOW_LIST = string("deserializationAllowList", "",
            v -> list(v, true), Listing.ALWAYS,
            "Comma-separated packages or classes object messages may deserialize besides `java.lang`, `java.util`,"
            + " `java.time` and `java.math`; `*`: every class (only safe when every sender is trusted).");
    public static final ConnectionOption<String> DESERIALIZATION_DENY_LIST = string("deserializationDenyList", "",
            v -> list(v, false), Listing.ALWAYS,
            "Comma-separated packages or classes object messages never deserialize; wins over the allow list.");
    public static final ConnectionOption<Integer> TRANSACTION_SEND_WINDOW = integer("transactionSendWindow", 64,
            between("transactionSendWindow", 0, 4096),
            "Messages a transacted session sends ahead without waiting for the broker's answers (checked and made"
            + " durable at the commit); 0: every send waits.");
    public static final ConnectionOption<Integer> TRANSACTION_BATCH_BYTES = integer("transactionBatchBytes", 1 << 20,
            between("transactionBatchBytes", 0, 4 << 20),
            "Bytes a transacted session keeps until its commit, which then sends them as one atomic batch (messages to"
            + " one destination, not delayed); more, or a second destination, streams them; 0: always stream.");
    public static final ConnectionOption<String> USER = string("user", null,
            v -> v == null || v.isBlank() ? null : v.strip(), Listing.WHEN_SET,
            "The user connections sign their requests as when `createConnection()` names none; unset: unsigned.");
    public static final ConnectionOption<String> PASSWORD = string("password", null, v -> v, Listing.SECRET,
            "The password of `user`; only a key derived from it leaves the process, never logged or serialized.");
    public static final ConnectionOption<Boolean> TLS = tlsFlag("tls", false,
            "Whether connections to NameServers and brokers speak TLS.");
    public static final ConnectionOption<String> TLS_TRUST_CERT_PATH = string("tlsTrustCertPath", "",
            ConnectionOptionTable::path, Listing.WITH_TLS,
            "PEM certificates trusted as the servers' (a private CA); empty: the JDK's authorities.");
    public static final ConnectionOption<String> TLS_CERT_PATH = string("tlsCertPath", "",
            ConnectionOptionTable::path, Listing.WITH_TLS,
            "This client's certificate for mutual TLS: PEM (with `tlsKeyPath`) or a PKCS#12 .p12 key store.");
    public static final ConnectionOption<String> TLS_KEY_PATH = string("tlsKeyPath", "",
            ConnectionOptionTable::path, Listing.WITH_TLS,
            "The PKCS#8 PEM private key of `tlsCertPath`.");
    public static final ConnectionOption<String> TLS_KEY_PASSWORD = string("tlsKeyPassword", "",
            v -> v == null ? "" : v, Listing.SECRET,
            "Password of the client key or key store; empty: none. Never logged or serialized.");
    public static final ConnectionOption<Boolean> TLS_VERIFY_HOSTNAME = tlsFlag("tlsVerifyHostname", true,
            "Whether a server's certificate must name the host or IP connected to.");

    /** Every option, in declaration order. */
    public static final List<ConnectionOption<?>> ALL = Collections.unmodifiableList(DECLARED);

    private static final Map<String, ConnectionOption<?>> BY_NAME = byName();

    /** Options that existed and were removed, with what to do instead. */
    private static final Map<String, String> RETIRED = Map.of(
            "consumeThreads", "A session delivers to its message listeners on one thread, as Jakarta Messaging"
                    + " requires; for more threads use more sessions (in Spring, spring.jms.listener.concurrency).",
            "pullThresholdForQueue", "A consumer holds at most pullBatchSize messages; set pullBatchSize instead.");

    private ConnectionOptionTable() {
    }

    /** The option of this name, or null. */
    public static ConnectionOption<?> byName(String name) {
        return BY_NAME.get(name);
    }

    /** The names of the removed options (refused with {@link #retiredProblem}). */
    public static Set<String> retiredNames() {
        return RETIRED.keySet();
    }

    /**
     * For a removed option, a sentence saying that it was removed and what to do instead; null for any other name.
     */
    public static String retiredProblem(String name) {
        String advice = RETIRED.get(name);
        return advice == null ? null : "The connection option " + name + " was removed in 0.2.0 (it had no effect). "
                + advice + " Remove the setting.";
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

    /** The README's option table (Markdown), one row per option in declaration order. */
    public static String markdownTable() {
        StringBuilder out = new StringBuilder("| option | type | default | meaning |\n|---|---|---|---|\n");
        for (ConnectionOption<?> o : ALL) {
            out.append("| `").append(o.name()).append("` | ").append(o.typeText()).append(" | ")
                    .append(o.defaultText()).append(" | ").append(o.doc()).append(" |\n");
        }
        return out.toString();
    }

    // ---------------------------------------------------------------- declaration helpers

    private static <T> ConnectionOption<T> declare(String name, Class<T> type, T defaultValue,
                                                   UnaryOperator<T> check, String doc, Listing listing) {
        ConnectionOption<T> option = new ConnectionOption<>(DECLARED.size(), name, type, defaultValue, check, doc,
                listing);
        DECLARED.add(option);
        return option;
    }

    private static ConnectionOption<String> string(String name, String defaultValue, UnaryOperator<String> check,
                                                   Listing listing, String doc) {
        return declare(name, String.class, defaultValue, check, doc, listing);
    }

    private static ConnectionOption<Integer> integer(String name, int defaultValue, UnaryOperator<Integer> check,
                                                     String doc) {
        return declare(name, Integer.class, defaultValue, check, doc, Listing.ALWAYS);
    }

    private static ConnectionOption<Long> longValue(String name, long defaultValue, UnaryOperator<Long> check,
                                                    String doc) {
        return declare(name, Long.class, defaultValue, check, doc, Listing.ALWAYS);
    }

    /** A switch of TLS, listed (like the other TLS options) only when TLS is on. */
    private static ConnectionOption<Boolean> tlsFlag(String name, boolean defaultValue, String doc) {
        return declare(name, Boolean.class, defaultValue, v -> v, doc, Listing.WITH_TLS);
    }

    private static Map<String, ConnectionOption<?>> byName() {
        Map<String, ConnectionOption<?>> out = new LinkedHashMap<>();
        for (ConnectionOption<?> o : DECLARED) {
            out.put(o.name(), o);
        }
        return Collections.unmodifiableMap(out);
    }

    // ---------------------------------------------------------------- checks

    private static <T> T refuse(String problem, T value) {
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return value;
    }

    private static String problem(String prefix, String problem) {
        return problem == null ? null : prefix + problem;
    }

    private static <N extends Number> UnaryOperator<N> atLeast(String option, long min, String unit) {
        return v -> {
            if (v.longValue() < min) {
                throw new IllegalArgumentException(option + " must be at least " + min + " (" + unit + "), not " + v
                        + ".");
            }
            return v;
        };
    }

    private static <N extends Number> UnaryOperator<N> between(String option, long min, long max) {
        return v -> {
            if (v.longValue() < min || v.longValue() > max) {
                throw new IllegalArgumentException(option + " must be between " + min + " and " + max + ", not " + v
                        + ".");
            }
            return v;
        };
    }

    private static String checkInstanceName(String v) {
        if (v != null && (v.isBlank() || v.chars().anyMatch(c -> Character.isISOControl(c) || c == '@'))) {
            throw new IllegalArgumentException("instanceName \"" + v + "\" is blank or contains control characters"
                    + " or '@'; give a plain name or leave it unset.");
        }
        return v;
    }

    private static String list(String v, boolean allow) {
        String list = v == null ? "" : v.strip();
        DeserializationPolicy.of(allow ? list : "", allow ? "" : list);
        return list;
    }

    private static String path(String v) {
        return v == null ? "" : v.strip();
    }
}
