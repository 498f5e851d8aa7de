package dev.wharf.jms.jndi;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.destination.WharfQueue;
import dev.wharf.jms.destination.WharfTopic;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.NamingException;
import javax.naming.spi.InitialContextFactory;

/**
 * An initial context described entirely by its environment (a {@code jndi.properties} file or the table given to
 * {@code new InitialContext(env)}):
 *
 * <pre>
 * java.naming.factory.initial = dev.wharf.jms.jndi.WharfInitialContextFactory
 * java.naming.provider.url    = wharf://localhost:9876          (optional: URL of factories without their own)
 * connectionFactory.MyFactory = wharf://ns1:9876?clientID=app1  (a WharfConnectionFactory under "MyFactory")
 * queue.jms/Orders            = orders                          (a queue named "orders" under "jms/Orders")
 * topic.Prices                = prices
 * </pre>
 *
 * When no {@code connectionFactory.} entry is given, one factory for the provider URL (or
 * {@value WharfConnectionFactory#DEFAULT_BROKER_URL}) is bound as {@code ConnectionFactory},
 * {@code QueueConnectionFactory} and {@code TopicConnectionFactory}. An empty value means the provider URL for a
 * factory and the JNDI name for a queue or topic. {@code dynamicQueues/<name>} and {@code dynamicTopics/<name>}
 * look up destinations without configuring them. A bad URL or destination name fails the creation of the context
 * with a {@link ConfigurationException} that names the entry.
 */
public class WharfInitialContextFactory implements InitialContextFactory {

    public static final String CONNECTION_FACTORY_PREFIX = "connectionFactory.";
    public static final String QUEUE_PREFIX = "queue.";
    public static final String TOPIC_PREFIX = "topic.";
    /** Names bound when the environment defines no connection factory. */
    public static final String[] DEFAULT_FACTORY_NAMES = {"ConnectionFactory", "QueueConnectionFactory",
        "TopicConnectionFactory"};

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) throws NamingException {
        Hashtable<Object, Object> env = environment == null ? new Hashtable<>() : new Hashtable<>(environment);
        Object provider = env.get(Context.PROVIDER_URL);
        String providerUrl = provider == null || provider.toString().isBlank()
                ? WharfConnectionFactory.DEFAULT_BROKER_URL : provider.toString().strip();
        Map<String, Object> bindings = new LinkedHashMap<>();
        boolean anyFactory = false;
        for (Map.Entry<Object, Object> e : env.entrySet()) {
            if (!(e.getKey() instanceof String key) || e.getValue() == null) {
                continue;
            }
            String value = e.getValue().toString().strip();
            if (key.startsWith(CONNECTION_FACTORY_PREFIX)) {
                String name = jndiName(key, CONNECTION_FACTORY_PREFIX);
                bindings.put(name, factory(key, value.isEmpty() ? providerUrl : value));
                anyFactory = true;
            } else if (key.startsWith(QUEUE_PREFIX)) {
                String name = jndiName(key, QUEUE_PREFIX);
                bindings.put(name, queue(key, value.isEmpty() ? name : value));
            } else if (key.startsWith(TOPIC_PREFIX)) {
                String name = jndiName(key, TOPIC_PREFIX);
                bindings.put(name, topic(key, value.isEmpty() ? name : value));
            }
        }
        if (!anyFactory) {
            WharfConnectionFactory factory = factory(Context.PROVIDER_URL, providerUrl);
            for (String name : DEFAULT_FACTORY_NAMES) {
                bindings.putIfAbsent(name, factory);
            }
        }
        return new WharfContext(bindings, env);
    }

    private static String jndiName(String key, String prefix) throws ConfigurationException {
        String name = key.substring(prefix.length()).strip();
        if (name.isEmpty()) {
            throw new ConfigurationException("The JNDI environment entry \"" + key + "\" names nothing; write "
                    + prefix + "<jndiName>=<value>.");
        }
        return name;
    }

    private static WharfConnectionFactory factory(String key, String url) throws ConfigurationException {
        try {
            return new WharfConnectionFactory(url);
        } catch (IllegalArgumentException e) {
            throw configuration(key, e);
        }
    }

    private static WharfQueue queue(String key, String name) throws ConfigurationException {
        try {
            return new WharfQueue(name);
        } catch (IllegalArgumentException e) {
            throw configuration(key, e);
        }
    }

    private static WharfTopic topic(String key, String name) throws ConfigurationException {
        try {
            return new WharfTopic(name);
        } catch (IllegalArgumentException e) {
            throw configuration(key, e);
        }
    }

    private static ConfigurationException configuration(String key, IllegalArgumentException e) {
        ConfigurationException ce = new ConfigurationException("The JNDI environment entry \"" + key
                + "\" is invalid: " + e.getMessage());
        ce.setRootCause(e);
        return ce;
    }
}
