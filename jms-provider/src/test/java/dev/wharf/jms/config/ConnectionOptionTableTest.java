package dev.wharf.jms.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.jndi.WharfObjectFactory;
import jakarta.jms.JMSException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.naming.Reference;
import javax.naming.StringRefAddr;
import org.junit.jupiter.api.Test;

/**
 * The option table is the one declaration of the connection options: the JavaBean accessors, the README's table,
 * the URL binding and the settings map agree with it; removed options are refused with what to do; a factory's
 * options freeze at its first connection.
 */
class ConnectionOptionTableTest {

    @Test
    void everyOptionHasTypedAccessorsWithTheTablesDefault() throws Exception {
        ConnectionOptions defaults = new ConnectionOptions();
        Map<String, PropertyDescriptor> props = new HashMap<>();
        for (PropertyDescriptor p : Introspector.getBeanInfo(WharfConnectionFactory.class, Object.class)
                .getPropertyDescriptors()) {
            props.put(p.getName(), p);
        }
        for (ConnectionOption<?> option : ConnectionOptionTable.ALL) {
            PropertyDescriptor p = props.get(option.name());
            assertThat(p).as(option.name()).isNotNull();
            assertThat(p.getReadMethod()).as(option.name()).isNotNull();
            assertThat(p.getWriteMethod()).as(option.name()).isNotNull();
            assertThat(box(p.getPropertyType())).as(option.name()).isEqualTo(option.type());
            assertThat(p.getReadMethod().invoke(defaults)).as(option.name()).isEqualTo(option.defaultValue());
            assertThat(defaults.get(option)).isEqualTo(option.defaultValue());
        }
        assertThat(BeanBinder.keys(ConnectionOptions.class))
                .containsExactlyInAnyOrderElementsOf(ConnectionOptionTable.ALL.stream().map(ConnectionOption::name)
                        .toList());
    }

    private static Class<?> box(Class<?> t) {
        return t == int.class ? Integer.class : t == long.class ? Long.class : t == boolean.class ? Boolean.class : t;
    }

    @Test
    void theReadmeTableListsExactlyTheDeclaredOptionsWithTheirDefaults() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String expected = ConnectionOptionTable.markdownTable();
        assertThat(readme).as("README.md's JMS option table; it should read:%n%s", expected).contains(expected);
        List<String> header = expected.lines().limit(1).toList();
        assertThat(readme.lines().filter(header::contains).count()).as("one option table").isEqualTo(1);
    }

    @Test
    void urlSettersAndSettingsGoThroughTheTable() {
        ConnectionOptions o = new ConnectionOptions();
        o.bind(Map.of("sendTimeout", " 250 ", "tls", "TRUE", "user", "  "), "test");
        assertThat(o.get(ConnectionOptionTable.SEND_TIMEOUT)).isEqualTo(250L);
        assertThat(o.isTls()).isTrue();
        assertThat(o.getUser()).isNull();
        assertThatThrownBy(() -> o.bind(Map.of("tls", "yes"), "test")).hasMessageContaining("tls=yes is not a valid"
                + " boolean");
        assertThatThrownBy(() -> o.bind(Map.of("pullBatchSize", "8", "leaseTime", "5"), "test"))
                .hasMessageContaining("leaseTime must be between 1000 and 86400000, not 5");
        assertThat(o.getPullBatchSize()).as("a refused binding sets nothing").isEqualTo(256);
        assertThatThrownBy(() -> o.set(ConnectionOptionTable.SEND_TIMEOUT, null))
                .hasMessageContaining("sendTimeout must be given a value");
        assertThat(o.toSettings()).containsEntry("tls", "true").containsEntry("tlsVerifyHostname", "true")
                .containsEntry("sendTimeout", "250");
    }

    @Test
    void removedOptionsAreRefusedWithWhatToDoInstead() throws Exception {
        assertThatThrownBy(() -> WharfConnectionConfig.parse("wharf://h:1?consumeThreads=4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("consumeThreads was removed")
                .hasMessageContaining("more sessions");
        assertThatThrownBy(() -> WharfConnectionConfig.parse("vm://x?pullThresholdForQueue=10"))
                .hasMessageContaining("pullThresholdForQueue was removed").hasMessageContaining("pullBatchSize");
        Reference ref = new WharfConnectionFactory("wharf://a:1").getReference();
        ref.add(new StringRefAddr("consumeThreads", "3"));
        assertThatThrownBy(() -> new WharfObjectFactory().getObjectInstance(ref, null, null, null))
                .hasMessageContaining("consumeThreads was removed").hasMessageContaining("JNDI reference");
        assertThat(ConnectionOptionTable.retiredProblem("sendTimeout")).isNull();
    }

    @Test
    void theFirstConnectionFreezesTheFactorysOptions() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory("wharf://127.0.0.1:" + closedPort());
        f.setSendTimeout(500);
        assertThatThrownBy(f::createConnection).isInstanceOf(JMSException.class);
        assertThatThrownBy(() -> f.setMaxReconsumeTimes(3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maxReconsumeTimes").hasMessageContaining("before the first connection");
        assertThatThrownBy(() -> f.setBrokerURL("wharf://h:2")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("brokerURL");
        assertThatThrownBy(() -> f.setTlsManagers(null, null)).isInstanceOf(IllegalStateException.class);
        assertThat(f.getMaxReconsumeTimes()).isEqualTo(16);
        assertThat(f.getSendTimeout()).isEqualTo(500);
        // the transaction hooks are code, not options: frameworks may still set them
        f.setTransactionChecker(null);
        // a copy is a new factory, configurable again
        WharfConnectionFactory copy = (WharfConnectionFactory) new WharfObjectFactory()
                .getObjectInstance(f.getReference(), null, null, null);
        copy.setMaxReconsumeTimes(3);
        assertThat(copy.getSendTimeout()).isEqualTo(500);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
