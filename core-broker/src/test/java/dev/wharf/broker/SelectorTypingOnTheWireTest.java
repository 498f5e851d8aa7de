package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's SQL92 filter refuses selectors that compare known unlike types, as a client's own check does
 * (Jakarta Messaging 3.1, 3.8.1.2): a pull and a pop carrying one are answered SUBSCRIPTION_PARSE_FAILED with
 * the column and the reason, and the broker keeps serving.
 */
@Timeout(60)
class SelectorTypingOnTheWireTest {

    private static final List<String> ILL_TYPED = List.of("TRUE = 0", "'foo' > TRUE", "myProp > 'foo'",
            "'1' = 1", "(a > 1) <= FALSE");

    @TempDir
    Path dir;
    private Broker broker;
    private ProtocolClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerFixture.start(dir);
        client = new ProtocolClient(broker.address());
        client.sendOk("Typed", 0, new byte[] {1}, Map.of());
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.shutdown();
    }

    @Test
    void pullAndPopRefuseComparisonsOfUnlikeTypes() throws Exception {
        try (AckProtocol popper = new AckProtocol(broker.address(), "typed-pop")) {
            for (String sql : ILL_TYPED) {
                RemotingCommand pull = client.pull("typed-pull", "Typed", 0, 0, 1, sql, "SQL92");
                assertThat(pull.code()).as(sql).isEqualTo(ResponseCode.SUBSCRIPTION_PARSE_FAILED);
                assertThat(pull.remark()).as(sql).contains(sql, "column");
                RemotingCommand pop = popper.popRaw(AckProtocol.popHeader("typed-pop", "Typed", 0, 1, 30_000, 0, sql,
                        null, false, null));
                assertThat(pop.code()).as(sql).isEqualTo(ResponseCode.SUBSCRIPTION_PARSE_FAILED);
                assertThat(pop.remark()).as(sql).contains(sql, "column");
            }
        }
        RemotingCommand fine = client.pull("typed-pull", "Typed", 0, 0, 1, "myProp > 3 OR myProp = 'foo'", "SQL92");
        assertThat(fine.code()).as("identifiers stay typed per message").isNotEqualTo(
                ResponseCode.SUBSCRIPTION_PARSE_FAILED);
    }
}
