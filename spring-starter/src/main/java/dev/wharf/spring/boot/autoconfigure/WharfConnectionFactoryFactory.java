package dev.wharf.spring.boot.autoconfigure;

import static dev.wharf.jms.config.ConnectionOptionTable.MAX_RECONSUME_TIMES;
import static dev.wharf.jms.config.ConnectionOptionTable.PASSWORD;
import static dev.wharf.jms.config.ConnectionOptionTable.PRODUCER_GROUP;
import static dev.wharf.jms.config.ConnectionOptionTable.REDELIVERY_DELAY;
import static dev.wharf.jms.config.ConnectionOptionTable.SEND_TIMEOUT;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_CERT_PATH;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_KEY_PASSWORD;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_KEY_PATH;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_TRUST_CERT_PATH;
import static dev.wharf.jms.config.ConnectionOptionTable.TLS_VERIFY_HOSTNAME;
import static dev.wharf.jms.config.ConnectionOptionTable.USER;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.config.ConnectionOption;
import dev.wharf.jms.config.ConnectionOptionTable;
import dev.wharf.jms.config.ConnectionOptions;
import dev.wharf.jms.spi.TransactionChecker;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import dev.wharf.spring.boot.autoconfigure.WharfProperties.Tls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslManagerBundle;
import org.springframework.util.StringUtils;

/**
 * Builds the Wharf connection factory from {@code wharf.*}: the URL, the {@code wharf.options.*} map, then the typed
 * options (which win over the map), then the transaction hooks. Both kinds of property go through the provider's
 * {@link ConnectionOptionTable}: a {@code wharf.options} key is an option's name, and each typed property that is
 * a connection option is listed in {@link #OPTION_PROPERTIES} with the option it sets. Every refused value becomes
 * an {@link InvalidConfigurationPropertyValueException} naming the property, so start-up fails with what to fix.
 */
final class WharfConnectionFactoryFactory {

    /** Options set through their own properties or by the starter, not through {@code wharf.options}. */
    private static final List<String> NOT_OPTIONS = List.of("brokerURL", "namesrvAddr");

    /**
     * A typed {@code wharf.*} property that is a connection option.
     *
     * @param property the property's name
     * @param option   the option it sets
     * @param value    reads it from the properties; null when it is not set
     */
    record OptionProperty<T>(String property, ConnectionOption<T> option, Function<WharfProperties, T> value) {
    }

    /** The typed connection-option properties, but {@code wharf.producer-group} (whose default is the starter's). */
    static final List<OptionProperty<?>> OPTION_PROPERTIES = List.of(
            new OptionProperty<>("wharf.max-reconsume-times", MAX_RECONSUME_TIMES,
                    WharfProperties::getMaxReconsumeTimes),
            new OptionProperty<>("wharf.redelivery-delay", REDELIVERY_DELAY, p -> millis(p.getRedeliveryDelay())),
            new OptionProperty<>("wharf.send-timeout", SEND_TIMEOUT, p -> millis(p.getSendTimeout())),
            new OptionProperty<>("wharf.user", USER, WharfProperties::getUser),
            new OptionProperty<>("wharf.password", PASSWORD, WharfProperties::getPassword),
            new OptionProperty<>("wharf.tls.enabled", TLS, p -> p.getTls().isEnabled() ? Boolean.TRUE : null),
            new OptionProperty<>("wharf.tls.trust-cert-path", TLS_TRUST_CERT_PATH, tls(Tls::getTrustCertPath)),
            new OptionProperty<>("wharf.tls.cert-path", TLS_CERT_PATH, tls(Tls::getCertPath)),
            new OptionProperty<>("wharf.tls.key-path", TLS_KEY_PATH, tls(Tls::getKeyPath)),
            new OptionProperty<>("wharf.tls.key-password", TLS_KEY_PASSWORD, tls(Tls::getKeyPassword)),
            new OptionProperty<>("wharf.tls.verify-hostname", TLS_VERIFY_HOSTNAME, tls(Tls::isVerifyHostname)));

    private final WharfProperties properties;
    private final String producerGroup;
    private final Supplier<SslBundles> sslBundles;

    /** @param sslBundles Boot's SSL bundles, asked only when wharf.ssl.bundle is set (may supply null) */
    WharfConnectionFactoryFactory(WharfProperties properties, String producerGroup, Supplier<SslBundles> sslBundles) {
        this.properties = properties;
        this.producerGroup = producerGroup;
        this.sslBundles = sslBundles;
    }

    WharfConnectionFactory create(String url, TransactionLifecycleListener lifecycle, TransactionChecker checker) {
        WharfConnectionFactory factory;
        try {
            factory = new WharfConnectionFactory(url);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationPropertyValueException("wharf.url", url, e.getMessage());
        }
        applyOptions(factory);
        set(factory, "wharf.producer-group", PRODUCER_GROUP, producerGroup);
        for (OptionProperty<?> p : OPTION_PROPERTIES) {
            setTyped(factory, p);
        }
        applySslBundle(factory);
        factory.setTransactionLifecycleListener(lifecycle);
        factory.setTransactionChecker(checker);
        return factory;
    }

    private <T> void setTyped(WharfConnectionFactory factory, OptionProperty<T> p) {
        set(factory, p.property(), p.option(), p.value().apply(properties));
    }

    /** Reads a {@code wharf.tls.*} property, which counts only with TLS on. */
    private static <T> Function<WharfProperties, T> tls(Function<Tls, T> getter) {
        return p -> p.getTls().isEnabled() ? getter.apply(p.getTls()) : null;
    }
    /** wharf.ssl.bundle: TLS with a Boot SSL bundle's trust store (and key store, for mutual TLS). */
    private void applySslBundle(WharfConnectionFactory factory) {
        String name = properties.getSsl().getBundle();
        if (!StringUtils.hasText(name)) {
            return;
        }
        WharfProperties.Tls tls = properties.getTls();
        if (tls.getTrustCertPath() != null || tls.getCertPath() != null || tls.getKeyPath() != null) {
            throw new InvalidConfigurationPropertyValueException("wharf.ssl.bundle", name, "The bundle replaces"
                    + " wharf.tls.trust-cert-path, cert-path and key-path; set either the bundle or the paths.");
        }
        SslBundles bundles = sslBundles.get();
        if (bundles == null) {
            throw new InvalidConfigurationPropertyValueException("wharf.ssl.bundle", name, "There is no SslBundles"
                    + " bean (Spring Boot's SSL auto-configuration is off); define the bundle under"
                    + " spring.ssl.bundle.pem." + name + " or spring.ssl.bundle.jks." + name + " with it on.");
        }
        SslBundle bundle;
        try {
            bundle = bundles.getBundle(name.strip());
        } catch (NoSuchSslBundleException e) {
            throw new InvalidConfigurationPropertyValueException("wharf.ssl.bundle", name, e.getMessage()
                    + "; define it under spring.ssl.bundle.pem." + name + " or spring.ssl.bundle.jks." + name + ".");
        }
        SslManagerBundle managers = bundle.getManagers();
        factory.setTls(true);
        factory.setTlsManagers(bundle.getStores().getKeyStore() == null ? null : managers.getKeyManagerFactory(),
                bundle.getStores().getTrustStore() == null ? null : managers.getTrustManagerFactory());
        factory.setTlsVerifyHostname(tls.isVerifyHostname());
    }

    /** wharf.options.*: each key an option of the table, in any of Spring's spellings. */
    private void applyOptions(WharfConnectionFactory factory) {
        List<String> names = new ArrayList<>(NOT_OPTIONS);
        ConnectionOptionTable.ALL.forEach(o -> names.add(o.name()));
        names.addAll(ConnectionOptionTable.retiredNames());
        Map<String, String> options = SettingKeys.canonical(properties.getOptions(), names);
        List<String> unknown = new ArrayList<>();
        options.forEach((key, value) -> {
            String property = "wharf.options." + key;
            if (SettingKeys.denotes(key, NOT_OPTIONS)) {
                throw new InvalidConfigurationPropertyValueException(property, value,
                        "Set the broker address with wharf.url (or leave it unset for the embedded broker).");
            }
            String retired = ConnectionOptionTable.retiredProblem(key);
            if (retired != null) {
                throw new InvalidConfigurationPropertyValueException(property, value, retired);
            }
            ConnectionOption<?> option = ConnectionOptionTable.byName(key);
            if (option == null) {
                unknown.add(key);
            } else {
                setText(factory, property, option, value);
            }
        });
        if (!unknown.isEmpty()) {
            throw new InvalidConfigurationPropertyValueException("wharf.options." + unknown.get(0),
                    options.get(unknown.get(0)), BeanBinder.describeUnknown(unknown, "wharf.options",
                            new ConnectionOptions()));
        }
    }

    private static <T> void setText(WharfConnectionFactory factory, String property, ConnectionOption<T> option,
                                    String text) {
        try {
            factory.set(option, option.parse(text));
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationPropertyValueException(property, text, e.getMessage());
        }
    }

    private static Long millis(Duration d) {
        return d == null ? null : d.toMillis();
    }

    private static <T> void set(WharfConnectionFactory factory, String property, ConnectionOption<T> option,
                                T value) {
        if (value == null) {
            return;
        }
        try {
            factory.set(option, value);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationPropertyValueException(property, value, e.getMessage());
        }
    }
}
