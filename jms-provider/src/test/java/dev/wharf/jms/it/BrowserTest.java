package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** QueueBrowser: looking at a queue without consuming it (Jakarta Messaging 3.1, 8.8). */
class BrowserTest {

    private static final VmNames VM = new VmNames("browser");
    private static String url;

    @BeforeAll
    static void broker() {
        url = VM.url("?defaultTopicQueueNums=1");
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    private static List<String> browse(QueueBrowser browser) throws Exception {
        List<String> out = new ArrayList<>();
        for (Object m : Collections.list(browser.getEnumeration())) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    @Test
    void aBrowserSeesWhatIsOnTheQueueAndConsumesNothing() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = s.createQueue("browser-basic");
            MessageProducer p = s.createProducer(q);
            for (int i = 0; i < 70; i++) {
                TextMessage m = s.createTextMessage("b" + i);
                m.setIntProperty("n", i);
                p.send(m);
            }
            QueueBrowser browser = s.createBrowser(q);
            List<String> all = IntStream.range(0, 70).mapToObj(i -> "b" + i).toList();
            assertThat(browse(browser)).as("70 messages over three pages").isEqualTo(all);
            assertThat(browse(browser)).as("browsing twice changes nothing").isEqualTo(all);
            assertThat(browse(s.createBrowser(q, "n >= 65"))).containsExactly("b65", "b66", "b67", "b68", "b69");
            assertThat(browser.getQueue()).isEqualTo(q);

            MessageConsumer consumer = s.createConsumer(q);
            for (int i = 0; i < 10; i++) {
                assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("b" + i);
            }
            assertThat(browse(browser)).as("acknowledged messages are gone from the queue")
                    .isEqualTo(all.subList(10, 70));
            browser.close();
            assertThatThrownBy(browser::getEnumeration).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void browsingAQueueThatDoesNotExistFindsNothing() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            Enumeration<?> e = s.createBrowser(s.createQueue("browser-nothing")).getEnumeration();
            assertThat(e.hasMoreElements()).isFalse();
        }
    }
}
