package dev.wharf.spring.boot.autoconfigure;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.config.ConnectionOptions;
import dev.wharf.jms.spi.TransactionChecker;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslManagerBundle;
import org.springframework.util.StringUtils;

/**
 * Builds the Wharf connection factory from {@code wharf.*}: the URL, the {@code wharf.options.*} map, then the typed
 * options (which win over the map), then the transaction hooks. Every refused value becomes an
 * {@link InvalidConfigurationPropertyValueException} naming the property, so start-up fails with what to fix.
 */
final class WharfConnectionFactoryFactory {

    /** Options set through their own properties or by the starter, not through {@code wharf.options}. */
    private static final List<String> NOT_OPTIONS = List.of("brokerURL", "namesrvAddr");

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
        set("wharf.producer-group", producerGroup, factory::setProducerGroup);
        set("wharf.max-reconsume-times", properties.getMaxReconsumeTimes(), factory::setMaxReconsumeTimes);
        set("wharf.redelivery-delay", millis(properties.getRedeliveryDelay()), factory::setRedeliveryDelay);
        set("wharf.send-timeout", millis(properties.getSendTimeout()), factory::setSendTimeout);
        set("wharf.user", properties.getUser(), factory::setUser);
        set("wharf.password", properties.getPassword(), factory::setPassword);
        WharfProperties.Tls tls = properties.getTls();
        if (tls.isEnabled()) {
            factory.setTls(true);
            set("wharf.tls.trust-cert-path", tls.getTrustCertPath(), factory::setTlsTrustCertPath);
            set("wharf.tls.cert-path", tls.getCertPath(), factory::setTlsCertPath);
            set("wharf.tls.key-path", tls.getKeyPath(), factory::setTlsKeyPath);
            set("wharf.tls.key-password", tls.getKeyPassword(), factory::setTlsKeyPassword);
            factory.setTlsVerifyHostname(tls.isVerifyHostname());
        }
        applySslBundle(factory);
        factory.setTransactionLifecycleListener(lifecycle);
        factory.setTransactionChecker(checker);
        return factory;
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

    private void applyOptions(WharfConnectionFactory factory) {
        Map<String, String> options = SettingKeys.canonical(properties.getOptions(), WharfConnectionFactory.class);
        for (String key : options.keySet()) {
            if (SettingKeys.denotes(key, NOT_OPTIONS)) {
                throw new InvalidConfigurationPropertyValueException("wharf.options." + key, options.get(key),
                        "Set the broker address with wharf.url (or leave it unset for the embedded broker).");
            }
        }
        List<String> unknown;
        try {
            unknown = BeanBinder.bind(options, factory);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationPropertyValueException("wharf.options", options, e.getMessage());
        }
        if (!unknown.isEmpty()) {
            throw new InvalidConfigurationPropertyValueException("wharf.options." + unknown.get(0),
                    options.get(unknown.get(0)), BeanBinder.describeUnknown(unknown, "wharf.options",
                            new ConnectionOptions()));
        }
    }

    private static Long millis(Duration d) {
        return d == null ? null : d.toMillis();
    }

    private static <T> void set(String property, T value, Consumer<T> setter) {
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationPropertyValueException(property, value, e.getMessage());
        }
    }
}
