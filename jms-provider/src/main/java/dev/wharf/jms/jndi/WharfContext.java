package dev.wharf.jms.jndi;

import dev.wharf.jms.destination.WharfQueue;
import dev.wharf.jms.destination.WharfTopic;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.Context;
import javax.naming.ContextNotEmptyException;
import javax.naming.InvalidNameException;
import javax.naming.Name;
import javax.naming.NameAlreadyBoundException;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NameParser;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.NotContextException;

/**
 * An in-memory naming context: the bindings {@link WharfInitialContextFactory} built from the environment, plus
 * whatever the application binds at run time, plus two virtual sub-contexts, {@code dynamicQueues/} and
 * {@code dynamicTopics/}, whose every name is a destination of that name. Names are composite names separated by
 * '/'; a name bound with a '/' in it (as {@code queue.jms/Orders} does) is found as a whole, and a name whose
 * first part is a bound sub-context is looked up in that sub-context. Thread-safe.
 */
final class WharfContext implements Context {

    static final String DYNAMIC_QUEUES = "dynamicQueues/";
    static final String DYNAMIC_TOPICS = "dynamicTopics/";

    private static final NameParser PARSER = CompositeName::new;

    private final ConcurrentHashMap<String, Object> bindings;
    private final Hashtable<Object, Object> environment;
    private final String nameInNamespace;

    WharfContext(Map<String, Object> bindings, Hashtable<Object, Object> environment) {
        this(new ConcurrentHashMap<>(bindings), environment, "");
    }

    private WharfContext(ConcurrentHashMap<String, Object> shared, Hashtable<Object, Object> environment,
                         String nameInNamespace) {
        this.bindings = shared;
        this.environment = new Hashtable<>(environment);
        this.nameInNamespace = nameInNamespace;
    }

    private static String text(Name name) {
        return name.toString();
    }

    private static String checked(String name) throws InvalidNameException {
        if (name == null) {
            throw new InvalidNameException("A JNDI name must not be null.");
        }
        return name.strip();
    }

    @Override
    public Object lookup(Name name) throws NamingException {
        return lookup(text(name));
    }

    @Override
    public Object lookup(String name) throws NamingException {
        String n = checked(name);
        if (n.isEmpty()) {
            return new WharfContext(bindings, environment, nameInNamespace);
        }
        Object bound = bindings.get(n);
        if (bound != null) {
            return bound;
        }
        if (n.startsWith(DYNAMIC_QUEUES) || n.startsWith(DYNAMIC_TOPICS)) {
            return dynamic(n);
        }
        int slash = n.indexOf('/');
        if (slash > 0 && bindings.get(n.substring(0, slash)) instanceof Context sub) {
            return sub.lookup(n.substring(slash + 1));
        }
        throw new NameNotFoundException("Nothing is bound to \"" + n + "\"; bound names are "
                + new TreeSet<>(bindings.keySet()) + ". Define it in the JNDI environment (queue." + n + "=<name>,"
                + " topic." + n + "=<name> or connectionFactory." + n + "=<url>) or look up " + DYNAMIC_QUEUES + n
                + " or " + DYNAMIC_TOPICS + n + ".");
    }

    private static Object dynamic(String n) throws InvalidNameException {
        boolean queue = n.startsWith(DYNAMIC_QUEUES);
        String destination = n.substring((queue ? DYNAMIC_QUEUES : DYNAMIC_TOPICS).length());
        try {
            return queue ? new WharfQueue(destination) : new WharfTopic(destination);
        } catch (IllegalArgumentException e) {
            InvalidNameException ine = new InvalidNameException("\"" + n + "\" names no valid destination: "
                    + e.getMessage());
            ine.setRootCause(e);
            throw ine;
        }
    }

    @Override
    public void bind(Name name, Object obj) throws NamingException {
        bind(text(name), obj);
    }

    @Override
    public void bind(String name, Object obj) throws NamingException {
        String n = nonEmpty(name);
        if (bindings.putIfAbsent(n, nonNull(n, obj)) != null) {
            throw new NameAlreadyBoundException("\"" + n + "\" is already bound; use rebind to replace it.");
        }
    }

    @Override
    public void rebind(Name name, Object obj) throws NamingException {
        rebind(text(name), obj);
    }

    @Override
    public void rebind(String name, Object obj) throws NamingException {
        String n = nonEmpty(name);
        bindings.put(n, nonNull(n, obj));
    }

    @Override
    public void unbind(Name name) throws NamingException {
        unbind(text(name));
    }

    /** Removes the binding; unbinding a name that is not bound succeeds, as JNDI specifies. */
    @Override
    public void unbind(String name) throws NamingException {
        bindings.remove(nonEmpty(name));
    }

    @Override
    public void rename(Name oldName, Name newName) throws NamingException {
        rename(text(oldName), text(newName));
    }

    @Override
    public void rename(String oldName, String newName) throws NamingException {
        String from = nonEmpty(oldName);
        String to = nonEmpty(newName);
        Object obj = bindings.get(from);
        if (obj == null) {
            throw new NameNotFoundException("Nothing is bound to \"" + from + "\", so it cannot be renamed.");
        }
        if (bindings.putIfAbsent(to, obj) != null) {
            throw new NameAlreadyBoundException("\"" + to + "\" is already bound; unbind it first.");
        }
        bindings.remove(from, obj);
    }

    private static Object nonNull(String name, Object obj) throws NamingException {
        if (obj == null) {
            throw new NamingException("Cannot bind null to \"" + name + "\"; bind an object or unbind the name.");
        }
        return obj;
    }

    private static String nonEmpty(String name) throws InvalidNameException {
        String n = checked(name);
        if (n.isEmpty()) {
            throw new InvalidNameException("The empty name stands for the context itself and cannot be bound.");
        }
        return n;
    }

    @Override
    public NamingEnumeration<NameClassPair> list(Name name) throws NamingException {
        return list(text(name));
    }

    @Override
    public NamingEnumeration<NameClassPair> list(String name) throws NamingException {
        List<NameClassPair> out = new ArrayList<>();
        for (Binding b : bindingsOf(name)) {
            out.add(new NameClassPair(b.getName(), b.getClassName()));
        }
        return new ListEnumeration<>(out);
    }

    @Override
    public NamingEnumeration<Binding> listBindings(Name name) throws NamingException {
        return listBindings(text(name));
    }

    @Override
    public NamingEnumeration<Binding> listBindings(String name) throws NamingException {
        return new ListEnumeration<>(bindingsOf(name));
    }

    private List<Binding> bindingsOf(String name) throws NamingException {
        String n = checked(name);
        if (!n.isEmpty()) {
            Object target = lookup(n);
            if (!(target instanceof Context c)) {
                throw new NotContextException("\"" + n + "\" is bound to a " + target.getClass().getName()
                        + ", not to a context; list its parent instead.");
            }
            List<Binding> out = new ArrayList<>();
            NamingEnumeration<Binding> e = c.listBindings("");
            while (e.hasMore()) {
                out.add(e.next());
            }
            return out;
        }
        List<Binding> out = new ArrayList<>();
        new TreeSet<>(bindings.keySet()).forEach(k -> {
            Object v = bindings.get(k);
            if (v != null) {
                out.add(new Binding(k, v.getClass().getName(), v));
            }
        });
        return out;
    }

    @Override
    public void destroySubcontext(Name name) throws NamingException {
        destroySubcontext(text(name));
    }

    @Override
    public void destroySubcontext(String name) throws NamingException {
        String n = nonEmpty(name);
        Object obj = bindings.get(n);
        if (obj == null) {
            return;
        }
        if (!(obj instanceof Context c)) {
            throw new NotContextException("\"" + n + "\" is bound to a " + obj.getClass().getName()
                    + ", not to a context; use unbind.");
        }
        if (c.list("").hasMore()) {
            throw new ContextNotEmptyException("The context \"" + n + "\" still has bindings; unbind them first.");
        }
        bindings.remove(n, obj);
    }

    @Override
    public Context createSubcontext(Name name) throws NamingException {
        return createSubcontext(text(name));
    }

    @Override
    public Context createSubcontext(String name) throws NamingException {
        String n = nonEmpty(name);
        WharfContext sub = new WharfContext(new ConcurrentHashMap<>(), environment,
                composeName(n, nameInNamespace));
        if (bindings.putIfAbsent(n, sub) != null) {
            throw new NameAlreadyBoundException("\"" + n + "\" is already bound.");
        }
        return sub;
    }

    @Override
    public Object lookupLink(Name name) throws NamingException {
        return lookup(name);
    }

    @Override
    public Object lookupLink(String name) throws NamingException {
        return lookup(name);
    }

    @Override
    public NameParser getNameParser(Name name) {
        return PARSER;
    }

    @Override
    public NameParser getNameParser(String name) {
        return PARSER;
    }

    @Override
    public Name composeName(Name name, Name prefix) throws NamingException {
        Name result = (Name) prefix.clone();
        return result.addAll(name);
    }

    @Override
    public String composeName(String name, String prefix) {
        return prefix == null || prefix.isEmpty() ? name : prefix + "/" + name;
    }

    @Override
    public Object addToEnvironment(String propName, Object propVal) {
        return environment.put(propName, propVal);
    }

    @Override
    public Object removeFromEnvironment(String propName) {
        return environment.remove(propName);
    }

    @Override
    public Hashtable<?, ?> getEnvironment() {
        return new Hashtable<>(environment);
    }

    /** Nothing to release: the context holds only objects in memory. */
    @Override
    public void close() {
    }

    @Override
    public String getNameInNamespace() {
        return nameInNamespace;
    }

    /** A naming enumeration over a snapshot list. */
    private static final class ListEnumeration<T> implements NamingEnumeration<T> {

        private final Iterator<T> it;

        ListEnumeration(List<T> items) {
            this.it = items.iterator();
        }

        @Override
        public T next() {
            return it.next();
        }

        @Override
        public boolean hasMore() {
            return it.hasNext();
        }

        @Override
        public void close() {
        }

        @Override
        public boolean hasMoreElements() {
            return it.hasNext();
        }

        @Override
        public T nextElement() {
            return it.next();
        }
    }
}
