package dev.wharf.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.config.WharfConnectionConfig;
import dev.wharf.jms.jndi.WharfObjectFactory;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnectionFactory;
import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;
import javax.naming.Reference;
import javax.naming.Referenceable;
import org.junit.jupiter.api.Test;

/** The factory as a JavaBean, its serialized and JNDI-reference forms, and its refusals. */
class WharfConnectionFactoryTest {

    @Test
    void isEveryKindOfFactory() {
        WharfConnectionFactory f = new WharfConnectionFactory();
        assertThat(f).isInstanceOf(ConnectionFactory.class).isInstanceOf(QueueConnectionFactory.class)
                .isInstanceOf(TopicConnectionFactory.class).isInstanceOf(Serializable.class)
                .isInstanceOf(Referenceable.class);
        assertThat(f.getBrokerURL()).isEqualTo("wharf://localhost:9876");
        assertThat(f.getNamesrvAddr()).isEqualTo("localhost:9876");
    }

    @Test
    void everyOptionIsAReadWriteBeanProperty() throws Exception {
        BeanInfo info = Introspector.getBeanInfo(WharfConnectionFactory.class, Object.class);
        Map<String, PropertyDescriptor> props = new TreeMap<>();
        for (PropertyDescriptor p : info.getPropertyDescriptors()) {
            props.put(p.getName(), p);
        }
        WharfConnectionFactory f = new WharfConnectionFactory();
        for (String option : f.getConfig().options().toSettings().keySet()) {
            assertThat(props).containsKey(option);
            assertThat(props.get(option).getReadMethod()).as(option).isNotNull();
            assertThat(props.get(option).getWriteMethod()).as(option).isNotNull();
        }
        assertThat(props).containsKeys("clientID", "instanceName", "brokerURL", "namesrvAddr");
    }

    @Test
    void settersAndUrlParametersSetTheSameOptionsAndTheLastCallWins() {
        WharfConnectionFactory f = new WharfConnectionFactory("wharf://h:1?maxReconsumeTimes=3");
        assertThat(f.getMaxReconsumeTimes()).isEqualTo(3);
        f.setMaxReconsumeTimes(5);
        assertThat(f.getMaxReconsumeTimes()).isEqualTo(5);
        assertThat(f.getConfig().options().getMaxReconsumeTimes()).isEqualTo(5);
        f.setBrokerURL("wharf://h:2?maxReconsumeTimes=7");
        assertThat(f.getMaxReconsumeTimes()).isEqualTo(7);
        f.setClientID("app");
        f.setProducerGroup("PG");
        f.setInstanceName("inst");
        f.setRedeliveryDelay(10);
        f.setSendTimeout(11);
        f.setRetryTimesWhenSendFailed(1);
        f.setPullBatchSize(8);
        f.setPollNameServerInterval(1000);
        f.setHeartbeatBrokerInterval(2000);
        f.setPersistConsumerOffsetInterval(3000);
        f.setDeserializationAllowList("com.example");
        f.setDeserializationDenyList("com.example.bad");
        assertThat(f.getClientID()).isEqualTo("app");
        assertThat(f.getProducerGroup()).isEqualTo("PG");
        assertThat(f.getInstanceName()).isEqualTo("inst");
        assertThat(f.getRedeliveryDelay()).isEqualTo(10);
        assertThat(f.getSendTimeout()).isEqualTo(11);
        assertThat(f.getRetryTimesWhenSendFailed()).isEqualTo(1);
        assertThat(f.getPullBatchSize()).isEqualTo(8);
        assertThat(f.getPollNameServerInterval()).isEqualTo(1000);
        assertThat(f.getHeartbeatBrokerInterval()).isEqualTo(2000);
        assertThat(f.getPersistConsumerOffsetInterval()).isEqualTo(3000);
        assertThat(f.getDeserializationAllowList()).isEqualTo("com.example");
        assertThat(f.getDeserializationDenyList()).isEqualTo("com.example.bad");
        assertThat(f.toString()).contains("wharf://h:2", "clientID=app");
    }

    @Test
    void aMalformedUrlFailsInTheConstructorAndABadOneLeavesTheFactoryAsItWas() {
        assertThatThrownBy(() -> new WharfConnectionFactory("wharf://host:port"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has the port \"port\"");
        WharfConnectionFactory f = new WharfConnectionFactory("wharf://h:1?sendTimeout=5");
        assertThatThrownBy(() -> f.setBrokerURL("wharf://h:2?sendTimeout=1&bogus=1"))
                .hasMessageContaining("\"bogus\"");
        assertThat(f.getBrokerURL()).isEqualTo("wharf://h:1?sendTimeout=5");
        assertThat(f.getSendTimeout()).isEqualTo(5);
        assertThatThrownBy(() -> f.setPullBatchSize(0)).hasMessageContaining("pullBatchSize");
        assertThatThrownBy(() -> f.setClientID("a b")).hasMessageContaining("client id");
    }

    @Test
    void namesrvAddrIsTheRocketMqFormOfTheUrl() {
        WharfConnectionFactory f = new WharfConnectionFactory("vm://x");
        assertThat(f.getNamesrvAddr()).isNull();
        f.setNamesrvAddr("a:1;b:2");
        assertThat(f.getBrokerURL()).isEqualTo("wharf://a:1,b:2");
        assertThat(f.getNamesrvAddr()).isEqualTo("a:1;b:2");
        assertThatThrownBy(() -> f.setNamesrvAddr(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void serializationKeepsUrlOptionsAndBrokerSettings() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory("vm://local?flushDiskType=SYNC_FLUSH&sendTimeout=9");
        f.setClientID("c1");
        f.setMaxReconsumeTimes(2);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(f);
        }
        WharfConnectionFactory back;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            back = (WharfConnectionFactory) in.readObject();
        }
        assertThat(back.getConfig()).isEqualTo(f.getConfig());
        assertThat(back.getClientID()).isEqualTo("c1");
        assertThat(back.getMaxReconsumeTimes()).isEqualTo(2);
        assertThat(back.getSendTimeout()).isEqualTo(9);
        assertThat(back.getConfig().brokerSettings()).containsEntry("flushDiskType", "SYNC_FLUSH");
    }

    @Test
    void theJndiReferenceRebuildsAnEqualFactory() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory("wharf://a:1?maxReconsumeTimes=4");
        f.setMaxReconsumeTimes(6);
        f.setClientID("client");
        f.setDeserializationAllowList("com.example");
        Reference ref = f.getReference();
        assertThat(ref.getFactoryClassName()).isEqualTo(WharfObjectFactory.class.getName());
        WharfConnectionFactory back = (WharfConnectionFactory) new WharfObjectFactory().getObjectInstance(ref, null,
                null, null);
        WharfConnectionConfig expected = f.getConfig();
        assertThat(back.getConfig()).isEqualTo(expected);
        assertThat(back.getMaxReconsumeTimes()).isEqualTo(6);
    }

    @Test
    void connectingToNothingIsRefusedWithASentenceNamingTheAddress() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory("wharf://127.0.0.1:" + closedPort());
        assertThatThrownBy(f::createConnection).isInstanceOf(JMSException.class)
                .hasMessageContaining("wharf://127.0.0.1:").hasMessageContaining("NameServer");
        assertThatThrownBy(() -> f.createQueueConnection("u", "p")).isInstanceOf(JMSException.class);
        assertThatThrownBy(f::createTopicConnection).isInstanceOf(JMSException.class);
        assertThatThrownBy(f::createContext).isInstanceOf(JMSRuntimeException.class)
                .hasMessageContaining("NameServer");
    }

    private static int closedPort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void anInvalidSessionModeIsRefusedFirst() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory("wharf://127.0.0.1:" + closedPort());
        assertThatThrownBy(() -> f.createContext(7)).isInstanceOf(JMSRuntimeException.class)
                .hasMessageContaining("Session mode 7");
        for (int mode : new int[] {JMSContext.AUTO_ACKNOWLEDGE, JMSContext.CLIENT_ACKNOWLEDGE,
            JMSContext.DUPS_OK_ACKNOWLEDGE, JMSContext.SESSION_TRANSACTED}) {
            assertThatThrownBy(() -> f.createContext(mode)).hasMessageNotContaining("Session mode");
        }
    }
}
