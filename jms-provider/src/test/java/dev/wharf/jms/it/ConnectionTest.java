package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;
import java.net.ServerSocket;
import java.util.Collections;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Connection and session lifecycle, client identifiers, metadata and refusals (Jakarta Messaging 3.1, 6.1, 6.2). */
class ConnectionTest {

    private static final VmNames VM = new VmNames("connection");
    private static String url;

    @BeforeAll
    static void broker() {
        url = VM.url();
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    private static WharfConnectionFactory factory() {
        return new WharfConnectionFactory(url);
    }

    @Test
    void closedConnectionsAndSessionsRefuseEverythingButClose() throws Exception {
        Connection c = factory().createConnection();
        Session s = c.createSession();
        s.close();
        s.close();
        assertThatThrownBy(s::createTextMessage).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("session is closed");
        assertThatThrownBy(() -> s.createProducer(null)).isInstanceOf(IllegalStateException.class);
        Session open = c.createSession();
        c.close();
        c.close();
        assertThatThrownBy(c::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("connection is closed");
        assertThatThrownBy(c::createSession).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(c::getClientID).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(open::createMessage).as("closing the connection closes its sessions")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void sessionModesAndInvalidAcknowledgeModes() throws Exception {
        try (Connection c = factory().createConnection()) {
            assertThat(c.createSession(true, Session.CLIENT_ACKNOWLEDGE).getAcknowledgeMode())
                    .isEqualTo(Session.SESSION_TRANSACTED);
            assertThat(c.createSession(true, 99).getTransacted()).isTrue();
            assertThat(c.createSession(false, Session.DUPS_OK_ACKNOWLEDGE).getAcknowledgeMode())
                    .isEqualTo(Session.DUPS_OK_ACKNOWLEDGE);
            assertThat(c.createSession(Session.CLIENT_ACKNOWLEDGE).getTransacted()).isFalse();
            assertThat(c.createSession().getAcknowledgeMode()).isEqualTo(Session.AUTO_ACKNOWLEDGE);
            assertThatThrownBy(() -> c.createSession(false, Session.SESSION_TRANSACTED))
                    .isInstanceOf(JMSException.class).hasMessageContaining("Acknowledge mode 0");
            assertThatThrownBy(() -> c.createSession(42)).isInstanceOf(JMSException.class)
                    .hasMessageContaining("AUTO_ACKNOWLEDGE");
            Session auto = c.createSession();
            assertThatThrownBy(auto::commit).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not transacted");
            assertThatThrownBy(auto::rollback).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> c.createSession(true, 0).recover()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("rollback()");
        }
    }

    @Test
    void aClientIdIsSetOnceAndOnlyBeforeTheConnectionIsUsed() throws Exception {
        try (Connection c = factory().createConnection()) {
            assertThat(c.getClientID()).isNull();
            c.setClientID("lifecycle-a");
            assertThat(c.getClientID()).isEqualTo("lifecycle-a");
            assertThatThrownBy(() -> c.setClientID("other")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already");
        }
        try (Connection c = factory().createConnection()) {
            c.createSession().close();
            assertThatThrownBy(() -> c.setClientID("late")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("right after the connection is created");
        }
        try (Connection c = factory().createConnection()) {
            assertThatThrownBy(() -> c.setClientID("bad id")).isInstanceOf(InvalidClientIDException.class)
                    .hasMessageContaining("' '");
            assertThatThrownBy(() -> c.setClientID(null)).isInstanceOf(InvalidClientIDException.class);
        }
    }

    @Test
    void aClientIdIsHeldByOneConnectionAtATime() throws Exception {
        Connection first = factory().createConnection();
        first.setClientID("lifecycle-dup");
        try (Connection second = factory().createConnection()) {
            assertThatThrownBy(() -> second.setClientID("lifecycle-dup")).isInstanceOf(InvalidClientIDException.class)
                    .hasMessageContaining("already used by another open connection");
        }
        first.close();
        try (Connection third = factory().createConnection()) {
            third.setClientID("lifecycle-dup");
            assertThat(third.getClientID()).isEqualTo("lifecycle-dup");
        }
    }

    @Test
    void aFactoryClientIdGoesToOneOpenConnection() throws Exception {
        WharfConnectionFactory f = factory();
        f.setClientID("lifecycle-factory");
        try (Connection c = f.createConnection()) {
            assertThat(c.getClientID()).isEqualTo("lifecycle-factory");
            assertThatThrownBy(() -> c.setClientID("x")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(f::createConnection).isInstanceOf(InvalidClientIDException.class);
        }
        f.createConnection().close();
    }

    @Test
    void metaDataNamesTheProviderAndTheJmsVersion() throws Exception {
        try (Connection c = factory().createConnection()) {
            ConnectionMetaData md = c.getMetaData();
            assertThat(md.getJMSVersion()).isEqualTo("3.1");
            assertThat(md.getJMSMajorVersion()).isEqualTo(3);
            assertThat(md.getJMSMinorVersion()).isEqualTo(1);
            assertThat(md.getJMSProviderName()).isEqualTo("Wharf");
            assertThat(md.getProviderVersion()).isNotBlank();
            assertThat(Collections.list(md.getJMSXPropertyNames())).contains("JMSXGroupID", "JMSXDeliveryCount");
        }
    }

    @Test
    void domainSessionsRefuseTheOtherDomain() throws Exception {
        WharfConnectionFactory f = factory();
        try (QueueConnection qc = f.createQueueConnection(); TopicConnection tc = f.createTopicConnection()) {
            QueueSession qs = qc.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThatThrownBy(() -> qs.createTopic("t")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("QueueSession");
            assertThatThrownBy(qs::createTemporaryTopic).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> qs.unsubscribe("s")).isInstanceOf(IllegalStateException.class);
            assertThat(qs.createQueue("q").getQueueName()).isEqualTo("q");
            TopicSession ts = tc.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThatThrownBy(() -> ts.createQueue("q")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("TopicSession");
            assertThatThrownBy(() -> ts.createBrowser(qs.createQueue("q"))).isInstanceOf(IllegalStateException.class);
            assertThat(ts.createTopic("t").getTopicName()).isEqualTo("t");
        }
    }

    @Test
    void optionalServerFacilitiesAreRefusedWithASentence() throws Exception {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            assertThatThrownBy(() -> c.createConnectionConsumer(s.createQueue("q"), null, null, 1))
                    .isInstanceOf(JMSException.class).hasMessageContaining("message listeners");
            assertThatThrownBy(s::getMessageListener).isInstanceOf(JMSException.class)
                    .hasMessageContaining("consumer");
        }
    }

    @Test
    void startAndStopAreIdempotent() throws Exception {
        try (Connection c = factory().createConnection()) {
            assertThatCode(() -> {
                c.start();
                c.start();
                c.stop();
                c.stop();
                c.start();
            }).doesNotThrowAnyException();
        }
    }

    @Test
    void anUnreachableNameServerIsReportedWithItsAddress() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        WharfConnectionFactory f = new WharfConnectionFactory("wharf://127.0.0.1:" + port);
        assertThatThrownBy(f::createConnection).isInstanceOf(JMSException.class)
                .hasMessageContaining("127.0.0.1:" + port).hasMessageContaining("NameServer");
    }
}
