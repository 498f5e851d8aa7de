package dev.wharf.jms.config;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.jms.message.DeserializationPolicy;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a connection is opened with: the broker URL, a snapshot of the factory options and, for {@code vm://}
 * URLs, the settings of the in-JVM broker. Immutable.
 *
 * <p><b>Where URL parameters go.</b> A parameter whose name is a factory option (see
 * {@link ConnectionOptionTable}) sets that option and is checked at once. On a {@code wharf://} URL every other
 * parameter is refused, with the closest option name as a hint. On a {@code vm://} URL every other parameter is
 * a broker setting ({@code flushDiskType}, {@code storePathRootDir}, {@code listenPort}, ... with RocketMQ's
 * names) and is kept, unchecked, in {@link #brokerSettings()}: the broker's configuration classes are what can
 * check them, so the component that starts the in-JVM broker binds them with {@link BeanBinder#bindStrict} onto
 * those classes before starting it and reports unknown keys with {@link #describeUnknownBrokerSettings}, whose
 * hints include the factory options (a misspelled option lands among the broker settings).
 */
public final class WharfConnectionConfig implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    /** The broker setting naming the in-JVM broker's store folder; absent means a fresh temporary folder. */
    public static final String STORE_PATH_ROOT_DIR = "storePathRootDir";


    private final WharfUrl url;
    private final ConnectionOptions options;
    private final Map<String, String> brokerSettings;

    private WharfConnectionConfig(WharfUrl url, AbstractConnectionOptions options) {
        this.url = url;
        this.options = new ConnectionOptions(options);
        Map<String, String> broker = new LinkedHashMap<>();
        if (url.isVm()) {
            url.parameters().forEach((k, v) -> {
                if (!isOption(k)) {
                    broker.put(k, v);
                }
            });
        }
        this.brokerSettings = Collections.unmodifiableMap(broker);
    }

    /**
     * Parses a URL and applies its option parameters to default options.
     *
     * @throws IllegalArgumentException when the URL is malformed or an option parameter is unknown or invalid
     */
    public static WharfConnectionConfig parse(String url) {
        ConnectionOptions options = new ConnectionOptions();
        return new WharfConnectionConfig(applyUrl(url, options), options);
    }

    /** The configuration of an already applied URL and the current options (the options are copied). */
    public static WharfConnectionConfig of(WharfUrl url, AbstractConnectionOptions options) {
        return new WharfConnectionConfig(url, options);
    }

    /**
     * Parses a URL and applies its option parameters to {@code target}: all of them or, when one is refused, none.
     *
     * @return the parsed URL
     * @throws IllegalArgumentException when the URL is malformed or an option parameter is unknown or invalid
     */
    public static WharfUrl applyUrl(String url, AbstractConnectionOptions target) {
        WharfUrl parsed = WharfUrl.parse(url);
        Map<String, String> optionParams = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        parsed.parameters().forEach((k, v) -> {
            if (isOption(k)) {
                optionParams.put(k, v);
            } else if (!parsed.isVm()) {
                unknown.add(k);
            }
        });
        String source = "the broker URL \"" + parsed.text() + "\"";
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(BeanBinder.describeUnknown(unknown, source, new ConnectionOptions())
                    + " Broker settings are accepted only by vm:// URLs, which start a broker in this JVM.");
        }
        ConnectionOptions copy = new ConnectionOptions(target);
        copy.bind(optionParams, source);
        target.copyFrom(copy);
        return parsed;
    }

    /** Whether a URL parameter is meant as a factory option (a removed one included, to be refused as such). */
    private static boolean isOption(String key) {
        return ConnectionOptionTable.byName(key) != null || ConnectionOptionTable.retiredProblem(key) != null;
    }

    /**
     * A sentence for broker settings of a vm:// URL that no broker configuration class knows, with hints from the
     * broker's keys and the factory options.
     *
     * @param unknown            keys {@link BeanBinder#bind} returned as unknown
     * @param brokerConfigBeans  the broker's configuration objects the settings were bound to
     */
    public String describeUnknownBrokerSettings(List<String> unknown, Object... brokerConfigBeans) {
        Object[] targets = Arrays.copyOf(brokerConfigBeans, brokerConfigBeans.length + 1);
        targets[brokerConfigBeans.length] = new ConnectionOptions();
        return BeanBinder.describeUnknown(unknown, "the broker URL \"" + url.text() + "\"", targets);
    }

    public WharfUrl url() {
        return url;
    }

    public boolean isVm() {
        return url.isVm();
    }

    /** The in-JVM broker's name, or null for a wharf:// URL. */
    public String vmBrokerName() {
        return url.vmName();
    }

    /** The NameServer addresses as {@code host:port}; empty for vm://. */
    public List<String> nameServerAddresses() {
        return url.addresses();
    }

    /** The NameServer addresses in RocketMQ's {@code namesrvAddr} form ({@code host:port;host:port}); null for vm://. */
    public String namesrvAddr() {
        return url.isVm() ? null : String.join(";", url.addresses());
    }

    /** A copy of the options. */
    public ConnectionOptions options() {
        return new ConnectionOptions(options);
    }

    /** The in-JVM broker's settings in URL order (empty for wharf://); see the class comment for their contract. */
    public Map<String, String> brokerSettings() {
        return brokerSettings;
    }

    /** The store folder a vm:// URL asks for, or null for "a fresh temporary folder" (and for wharf://). */
    public String storePathRootDir() {
        return brokerSettings.get(STORE_PATH_ROOT_DIR);
    }

    public DeserializationPolicy deserializationPolicy() {
        return options.toDeserializationPolicy();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WharfConnectionConfig c && c.url.equals(url) && c.options.equals(options);
    }

    @Override
    public int hashCode() {
        return url.hashCode() * 31 + options.hashCode();
    }

    @Override
    public String toString() {
        return "WharfConnectionConfig{url=" + url + ", options=" + options.toSettings()
                + (brokerSettings.isEmpty() ? "" : ", brokerSettings=" + brokerSettings) + "}";
    }
}
