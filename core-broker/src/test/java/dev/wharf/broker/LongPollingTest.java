package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.TopicPerm;
import dev.wharf.protocol.header.RouteHeaders.CreateTopicRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class LongPollingTest {

    private static final Logger log = LoggerFactory.getLogger(LongPollingTest.class);

    @TempDir
    Path dir;

    private Broker broker;
    private ProtocolClient client;

    private void start(boolean longPolling) throws Exception {
        broker = BrokerFixture.start(dir, s -> {
            s.broker().polling().setLongPollingEnable(longPolling);
            s.broker().polling().setShortPollingTimeMills(300);
        });
        client = new ProtocolClient(broker.address());
        RemotingCommand created = client.invoke(RequestCode.UPDATE_AND_CREATE_TOPIC,
                new CreateTopicRequest("Held", 2, 2, TopicPerm.READ | TopicPerm.WRITE, 0, false));
        assertThat(created.code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (broker != null) {
            broker.shutdown();
        }
    }

    private CompletableFuture<RemotingCommand> heldPull(String tags, long suspendMillis) {
        RemotingCommand request = ProtocolClient.request(RequestCode.PULL_MESSAGE,
                ProtocolClient.pullHeader("g", "Held", 0, 0, 32, tags, "TAG", suspendMillis));
        return client.invokeAsync(request, suspendMillis + 5_000);
    }

    @Test
    void aHeldPullIsAnsweredSoonAfterASend() throws Exception {
        start(true);
        long[] micros = new long[20];
        for (int i = 0; i < micros.length; i++) {
            RemotingCommand request = ProtocolClient.request(RequestCode.PULL_MESSAGE,
                    ProtocolClient.pullHeader("g", "Held", 0, i, 32, "*", "TAG", 10_000));
            CompletableFuture<RemotingCommand> pull = client.invokeAsync(request, 15_000);
            await().atMost(Duration.ofSeconds(5)).until(() -> broker.heldPullCount() == 1);
            long sentAt = System.nanoTime();
            client.sendOk("Held", 0, new byte[] {(byte) i}, Map.of());
            RemotingCommand response = pull.get(10, TimeUnit.SECONDS);
            micros[i] = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sentAt);
            assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(ProtocolClient.messages(response)).extracting(MessageExt::getBody)
                    .containsExactly(new byte[] {(byte) i});
            assertThat(TimeUnit.MICROSECONDS.toMillis(micros[i])).isLessThan(10_000);
        }
        long first = micros[0];
        java.util.Arrays.sort(micros);
        log.info("Long polling: send-to-answer of a held pull: first {} us, then median {} us, max {} us over {} pulls",
                first, micros[micros.length / 2], micros[micros.length - 1], micros.length);
        assertThat(broker.heldPullCount()).isZero();
    }

    @Test
    void aHeldPullTimesOutToNotFound() throws Exception {
        start(true);
        long started = System.nanoTime();
        RemotingCommand response = heldPull("*", 400).get(10, TimeUnit.SECONDS);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(response.code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
        assertThat(ProtocolClient.pullResponse(response).nextBeginOffset()).isZero();
        assertThat(waited).isGreaterThanOrEqualTo(350);
        log.info("Long polling: a 400 ms suspend was answered after {} ms", waited);
    }

    @Test
    void aHeldPullWakesOnlyForItsTags() throws Exception {
        start(true);
        CompletableFuture<RemotingCommand> pull = heldPull("A", 10_000);
        await().atMost(Duration.ofSeconds(5)).until(() -> broker.heldPullCount() == 1);
        client.sendOk("Held", 0, new byte[] {1}, Map.of(MessageProperties.TAGS, "B"));
        client.sendOk("Held", 0, new byte[] {2}, Map.of(MessageProperties.TAGS, "A"));
        RemotingCommand response = pull.get(10, TimeUnit.SECONDS);
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(ProtocolClient.messages(response)).extracting(MessageExt::getTags).containsExactly("A");
        assertThat(ProtocolClient.pullResponse(response).nextBeginOffset()).isEqualTo(2);
    }

    @Test
    void withoutLongPollingAPullWaitsOnlyTheShortPollingTime() throws Exception {
        start(false);
        long started = System.nanoTime();
        RemotingCommand response = heldPull("*", 30_000).get(10, TimeUnit.SECONDS);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(response.code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
        assertThat(waited).isLessThan(30_000);
        log.info("Short polling: answered after {} ms", waited);
    }

    @Test
    void aPullWithoutTheSuspendFlagIsAnsweredAtOnce() throws Exception {
        start(true);
        RemotingCommand response = client.pull("g", "Held", 1, 0, 32, "*", "TAG");
        assertThat(response.code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
        assertThat(broker.heldPullCount()).isZero();
    }
}
