package dev.wharf.jms.jndi;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.destination.DestinationKind;
import dev.wharf.jms.destination.Destinations;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.jms.destination.WharfQueue;
import dev.wharf.jms.destination.WharfTemporaryQueue;
import dev.wharf.jms.destination.WharfTemporaryTopic;
import dev.wharf.jms.destination.WharfTopic;
import java.util.Enumeration;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.Name;
import javax.naming.RefAddr;
import javax.naming.Reference;
import javax.naming.spi.ObjectFactory;

/**
 * Turns the JNDI references of {@link WharfConnectionFactory} and the destinations back into objects; a JNDI
 * server calls it when a looked-up entry is such a reference. References of other classes return null, as the
 * {@link ObjectFactory} contract asks, so that other factories can try.
 */
public class WharfObjectFactory implements ObjectFactory {

    @Override
    public Object getObjectInstance(Object obj, Name name, Context nameCtx, Hashtable<?, ?> environment)
            throws ConfigurationException {
        if (!(obj instanceof Reference ref)) {
            return null;
        }
        String className = ref.getClassName();
        try {
            if (WharfConnectionFactory.class.getName().equals(className)) {
                return connectionFactory(ref);
            }
            DestinationKind kind = kindOf(className);
            if (kind != null) {
                RefAddr addr = ref.get(WharfDestination.REFERENCE_NAME);
                if (addr == null || addr.getContent() == null) {
                    throw new ConfigurationException("The JNDI reference to a " + kind.label() + " has no \""
                            + WharfDestination.REFERENCE_NAME + "\" address; bind the destination again.");
                }
                return Destinations.create(kind, addr.getContent().toString());
            }
        } catch (IllegalArgumentException e) {
            ConfigurationException ce = new ConfigurationException("The JNDI reference to a " + className
                    + " is invalid: " + e.getMessage());
            ce.setRootCause(e);
            throw ce;
        }
        return null;
    }

    private static DestinationKind kindOf(String className) {
        if (WharfQueue.class.getName().equals(className)) {
            return DestinationKind.QUEUE;
        } else if (WharfTopic.class.getName().equals(className)) {
            return DestinationKind.TOPIC;
        } else if (WharfTemporaryQueue.class.getName().equals(className)) {
            return DestinationKind.TEMPORARY_QUEUE;
        } else if (WharfTemporaryTopic.class.getName().equals(className)) {
            return DestinationKind.TEMPORARY_TOPIC;
        }
        return null;
    }

    private static WharfConnectionFactory connectionFactory(Reference ref) {
        Map<String, String> settings = new LinkedHashMap<>();
        String url = null;
        Enumeration<RefAddr> addrs = ref.getAll();
        while (addrs.hasMoreElements()) {
            RefAddr a = addrs.nextElement();
            if (a.getContent() == null) {
                continue;
            }
            if (WharfConnectionFactory.REFERENCE_BROKER_URL.equals(a.getType())) {
                url = a.getContent().toString();
            } else {
                settings.put(a.getType(), a.getContent().toString());
            }
        }
        WharfConnectionFactory factory = url == null ? new WharfConnectionFactory() : new WharfConnectionFactory(url);
        factory.bind(settings, "the JNDI reference");
        return factory;
    }
}
