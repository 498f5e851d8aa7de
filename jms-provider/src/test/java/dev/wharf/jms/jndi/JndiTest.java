package dev.wharf.jms.jndi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.destination.WharfQueue;
import dev.wharf.jms.destination.WharfTemporaryQueue;
import dev.wharf.jms.destination.WharfTopic;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Hashtable;
import java.util.List;
import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.ContextNotEmptyException;
import javax.naming.InitialContext;
import javax.naming.InvalidNameException;
import javax.naming.NameAlreadyBoundException;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.NotContextException;
import javax.naming.Reference;
import javax.naming.StringRefAddr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lookups through {@code new InitialContext(env)} with the properties-style environment. */
class JndiTest {

    private static Hashtable<String, String> env(String... keyValues) {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, WharfInitialContextFactory.class.getName());
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        return env;
    }

    @Test
    void factoriesQueuesAndTopicsFromTheEnvironment() throws NamingException {
        Context ctx = new InitialContext(env(
                "connectionFactory.MyFactory", "wharf://ns1:9876?clientID=app1",
                "connectionFactory.Local", "vm://local?flushDiskType=SYNC_FLUSH",
                "queue.jms/Orders", "orders",
                "topic.Prices", "prices",
                "queue.SameName", ""));
        WharfConnectionFactory f = (WharfConnectionFactory) ctx.lookup("MyFactory");
        assertThat(f.getNamesrvAddr()).isEqualTo("ns1:9876");
        assertThat(f.getClientID()).isEqualTo("app1");
        assertThat(((WharfConnectionFactory) ctx.lookup("Local")).getConfig().brokerSettings())
                .containsEntry("flushDiskType", "SYNC_FLUSH");
        assertThat((Queue) ctx.lookup("jms/Orders")).isEqualTo(new WharfQueue("orders"));
        assertThat((Topic) ctx.lookup("Prices")).isEqualTo(new WharfTopic("prices"));
        assertThat(ctx.lookup(new CompositeName("Prices"))).isEqualTo(new WharfTopic("prices"));
        assertThat(ctx.lookup("SameName")).isEqualTo(new WharfQueue("SameName"));
        assertThatThrownBy(() -> ctx.lookup("ConnectionFactory")).isInstanceOf(NameNotFoundException.class);
    }

    /** {@code new InitialContext()} reads jndi.properties from the context class loader, as applications do. */
    @Test
    void aJndiPropertiesFileOnTheClassPathIsEnough(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("jndi.properties"), String.join("\n",
                "java.naming.factory.initial = " + WharfInitialContextFactory.class.getName(),
                "connectionFactory.ConnectionFactory = wharf://ns1:9876,ns2:9876?maxReconsumeTimes=3",
                "queue.jms/Orders = orders",
                "topic.Prices = prices"));
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, previous)) {
            Thread.currentThread().setContextClassLoader(loader);
            Context ctx = new InitialContext();
            WharfConnectionFactory cf = (WharfConnectionFactory) ctx.lookup("ConnectionFactory");
            assertThat(cf.getNamesrvAddr()).isEqualTo("ns1:9876;ns2:9876");
            assertThat(cf.getMaxReconsumeTimes()).isEqualTo(3);
            assertThat(ctx.lookup("jms/Orders")).isEqualTo(new WharfQueue("orders"));
            assertThat(ctx.lookup("Prices")).isEqualTo(new WharfTopic("prices"));
            assertThat(ctx.lookup("dynamicQueues/more")).isEqualTo(new WharfQueue("more"));
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    @Test
    void withoutFactoryEntriesTheDefaultFactoriesUseTheProviderUrl() throws NamingException {
        Context ctx = new InitialContext(env(Context.PROVIDER_URL, "wharf://ns:1234"));
        for (String name : WharfInitialContextFactory.DEFAULT_FACTORY_NAMES) {
            assertThat(((WharfConnectionFactory) ctx.lookup(name)).getBrokerURL()).isEqualTo("wharf://ns:1234");
        }
        Context defaults = new InitialContext(env());
        assertThat(((WharfConnectionFactory) defaults.lookup("ConnectionFactory")).getBrokerURL())
                .isEqualTo(WharfConnectionFactory.DEFAULT_BROKER_URL);
        Context empty = new InitialContext(env(Context.PROVIDER_URL, "vm://p", "connectionFactory.CF", ""));
        assertThat(((ConnectionFactory) empty.lookup("CF"))).isInstanceOf(WharfConnectionFactory.class);
        assertThat(((WharfConnectionFactory) empty.lookup("CF")).getBrokerURL()).isEqualTo("vm://p");
    }

    @Test
    void dynamicDestinations() throws NamingException {
        Context ctx = new InitialContext(env());
        assertThat(ctx.lookup("dynamicQueues/work.items")).isEqualTo(new WharfQueue("work.items"));
        assertThat(ctx.lookup("dynamicTopics/news")).isEqualTo(new WharfTopic("news"));
        assertThatThrownBy(() -> ctx.lookup("dynamicQueues/bad name")).isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("bad name");
        assertThatThrownBy(() -> ctx.lookup("dynamicTopics/")).isInstanceOf(InvalidNameException.class);
    }

    @Test
    void badEntriesFailTheContextWithTheEntryNamed() {
        assertThatThrownBy(() -> new InitialContext(env("connectionFactory.CF", "tcp://x:1")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("connectionFactory.CF")
                .hasMessageContaining("scheme \"tcp\"");
        assertThatThrownBy(() -> new InitialContext(env("queue.Q", "a b")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("queue.Q");
        assertThatThrownBy(() -> new InitialContext(env("topic.", "t")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("names nothing");
        assertThatThrownBy(() -> new InitialContext(env(Context.PROVIDER_URL, "vm://")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining(Context.PROVIDER_URL);
    }

    @Test
    void anUnknownNameSaysHowToDefineIt() throws NamingException {
        Context ctx = new InitialContext(env("queue.A", "a"));
        assertThatThrownBy(() -> ctx.lookup("Orders")).isInstanceOf(NameNotFoundException.class)
                .hasMessageContaining("queue.Orders=").hasMessageContaining("dynamicQueues/Orders")
                .hasMessageContaining("[A, ConnectionFactory");
    }

    @Test
    void bindRebindUnbindRenameAndList() throws NamingException {
        Context ctx = new InitialContext(env("queue.A", "a"));
        ctx.bind("B", new WharfTopic("b"));
        assertThatThrownBy(() -> ctx.bind("B", "x")).isInstanceOf(NameAlreadyBoundException.class);
        ctx.rebind("B", new WharfTopic("b2"));
        assertThat(ctx.lookup("B")).isEqualTo(new WharfTopic("b2"));
        ctx.rename("B", "C");
        assertThatThrownBy(() -> ctx.lookup("B")).isInstanceOf(NameNotFoundException.class);
        assertThatThrownBy(() -> ctx.rename("B", "D")).isInstanceOf(NameNotFoundException.class);
        assertThatThrownBy(() -> ctx.rename("C", "A")).isInstanceOf(NameAlreadyBoundException.class);
        ctx.unbind("C");
        ctx.unbind("never-bound");
        assertThatThrownBy(() -> ctx.bind("", "x")).isInstanceOf(InvalidNameException.class);
        assertThatThrownBy(() -> ctx.bind("N", null)).isInstanceOf(NamingException.class);
        List<String> names = new ArrayList<>();
        NamingEnumeration<NameClassPair> list = ctx.list("");
        while (list.hasMore()) {
            names.add(list.next().getName());
        }
        assertThat(names).containsExactly("A", "ConnectionFactory", "QueueConnectionFactory",
                "TopicConnectionFactory");
        List<Binding> bindings = Collections.list(ctx.listBindings(""));
        assertThat(bindings.get(0).getObject()).isEqualTo(new WharfQueue("a"));
        assertThat(bindings.get(0).getClassName()).isEqualTo(WharfQueue.class.getName());
        assertThatThrownBy(() -> ctx.list("A")).isInstanceOf(NotContextException.class);
    }

    @Test
    void subcontexts() throws NamingException {
        Context ctx = new InitialContext(env());
        Context jms = ctx.createSubcontext("jms");
        jms.bind("Q", new WharfQueue("q"));
        assertThat(ctx.lookup("jms/Q")).isEqualTo(new WharfQueue("q"));
        assertThat(jms.getNameInNamespace()).isEqualTo("jms");
        assertThat(Collections.list(ctx.list("jms"))).extracting(NameClassPair::getName).containsExactly("Q");
        assertThatThrownBy(() -> ctx.createSubcontext("jms")).isInstanceOf(NameAlreadyBoundException.class);
        assertThatThrownBy(() -> ctx.destroySubcontext("jms")).isInstanceOf(ContextNotEmptyException.class);
        assertThatThrownBy(() -> ctx.destroySubcontext("ConnectionFactory")).isInstanceOf(NotContextException.class);
        jms.unbind("Q");
        ctx.destroySubcontext("jms");
        ctx.destroySubcontext("jms");
        assertThatThrownBy(() -> ctx.lookup("jms")).isInstanceOf(NameNotFoundException.class);
    }

    @Test
    void environmentAndNames() throws NamingException {
        Context ctx = new InitialContext(env("queue.A", "a"));
        Context same = (Context) ctx.lookup("");
        assertThat(same.lookup("A")).isEqualTo(new WharfQueue("a"));
        assertThat(ctx.getEnvironment().get("queue.A")).isEqualTo("a");
        ctx.addToEnvironment("extra", "1");
        assertThat(ctx.getEnvironment().get("extra")).isEqualTo("1");
        ctx.removeFromEnvironment("extra");
        assertThat(ctx.getEnvironment().containsKey("extra")).isFalse();
        assertThat(same.composeName("b", "a")).isEqualTo("a/b");
        assertThat(same.composeName(new CompositeName("b"), new CompositeName("a")).toString()).isEqualTo("a/b");
        assertThat(ctx.getNameParser("").parse("x/y").size()).isEqualTo(2);
        assertThat(ctx.lookupLink("A")).isEqualTo(new WharfQueue("a"));
        ctx.close();
    }

    @Test
    void theObjectFactoryResolvesDestinationReferencesAndIgnoresOthers() throws Exception {
        WharfObjectFactory factory = new WharfObjectFactory();
        assertThat(factory.getObjectInstance(new WharfQueue("q").getReference(), null, null, null))
                .isEqualTo(new WharfQueue("q"));
        assertThat(factory.getObjectInstance(new WharfTemporaryQueue("tq", null).getReference(), null, null, null))
                .isEqualTo(new WharfTemporaryQueue("tq", null));
        assertThat(factory.getObjectInstance("not a reference", null, null, null)).isNull();
        assertThat(factory.getObjectInstance(new Reference("java.lang.String"), null, null, null)).isNull();
        Reference broken = new Reference(WharfTopic.class.getName());
        assertThatThrownBy(() -> factory.getObjectInstance(broken, null, null, null))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("no \"name\"");
        Reference bad = new Reference(WharfTopic.class.getName(), new StringRefAddr("name", "a b"));
        assertThatThrownBy(() -> factory.getObjectInstance(bad, null, null, null))
                .isInstanceOf(ConfigurationException.class);
        Reference badFactory = new Reference(WharfConnectionFactory.class.getName(),
                new StringRefAddr("brokerURL", "wharf://h:1"));
        badFactory.add(new StringRefAddr("sendTimeot", "5"));
        assertThatThrownBy(() -> factory.getObjectInstance(badFactory, null, null, null))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("did you mean \"sendTimeout\"");
    }
}
