package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** A refused request leaves a WARN line with the client's address and the reason, one-way ones included. */
class RefusalLogTest {

    @TempDir
    Path dir;

    private Broker broker;
    private ProtocolClient client;
    private Logger dispatcherLog;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    @BeforeEach
    void start() throws Exception {
        broker = BrokerFixture.start(dir);
        client = new ProtocolClient(broker.address());
        dispatcherLog = (Logger) LoggerFactory.getLogger("dev.wharf.remoting.RequestDispatcher");
        appender.start();
        dispatcherLog.addAppender(appender);
    }

    @AfterEach
    void stop() {
        dispatcherLog.detachAppender(appender);
        client.close();
        broker.shutdown();
    }

    private List<String> warnings() {
        return appender.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void aOnewaySendWithoutItsHeaderIsLoggedWithTheClientAndTheMissingField() throws Exception {
        client.oneway(RemotingCommand.createRequest(310).markOneway().putExt("b", "T").setBody(new byte[] {1}));
        await().atMost(Duration.ofSeconds(10)).until(() -> warnings().stream().anyMatch(w ->
                w.contains("SEND_MESSAGE_V2") && w.contains("127.0.0.1:") && w.contains("producerGroup")));
    }

    @Test
    void aOnewaySendToAnInternalTopicIsLoggedWithTheReason() throws Exception {
        RemotingCommand request = ProtocolClient.request(10, ProtocolClient.sendHeader("SCHEDULE_TOPIC_XXXX", 0,
                Map.of())).setBody(new byte[] {1}).markOneway();
        client.oneway(request);
        await().atMost(Duration.ofSeconds(10)).until(() -> warnings().stream().anyMatch(w ->
                w.contains("one-way") && w.contains("NO_PERMISSION") && w.contains("internal")));
    }

    @Test
    void anUnknownCodeIsAnsweredAsRocketMqDoesAndLogged() throws Exception {
        RemotingCommand answer = client.invoke(RemotingCommand.createRequest(777_777));
        assertThat(answer.code()).isEqualTo(ResponseCode.REQUEST_CODE_NOT_SUPPORTED);
        assertThat(answer.remark()).contains("777777", "not supported");
        await().atMost(Duration.ofSeconds(10)).until(() -> warnings().stream().anyMatch(w ->
                w.contains("777777") && w.contains("127.0.0.1:")));
    }
}
