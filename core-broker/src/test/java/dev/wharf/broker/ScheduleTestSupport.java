package dev.wharf.broker;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Helpers of the scheduled-delivery and retry tests: delayed sends and reading whole queues. */
final class ScheduleTestSupport {

    /** Short levels so that tests run in seconds: level n waits n * 100 ms for n <= 8, then 1 s and 2 s. */
    static final String TEST_LEVELS = "100ms 200ms 300ms 400ms 500ms 600ms 700ms 800ms 1s 2s";

    private ScheduleTestSupport() {
    }

    static Map<String, String> props(String uniqueId, String... extra) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, uniqueId);
        for (int i = 0; i + 1 < extra.length; i += 2) {
            p.put(extra[i], extra[i + 1]);
        }
        return p;
    }

    /** Every message of a queue from {@code from} to its end (pulls without waiting, no offset commit). */
    static List<MessageExt> readQueue(ProtocolClient client, String group, String topic, int queueId, long from)
            throws Exception {
        List<MessageExt> out = new ArrayList<>();
        long offset = from;
        while (true) {
            RemotingCommand response = client.pull(group, topic, queueId, offset, 32, "*", "TAG");
            if (response.code() != ResponseCode.SUCCESS) {
                return out;
            }
            List<MessageExt> batch = ProtocolClient.messages(response);
            out.addAll(batch);
            offset = ProtocolClient.pullResponse(response).nextBeginOffset();
            if (batch.isEmpty()) {
                return out;
            }
        }
    }

    /** Every message of every queue of a topic with {@code queues} queues. */
    static List<MessageExt> readTopic(ProtocolClient client, String group, String topic, int queues) throws Exception {
        List<MessageExt> out = new ArrayList<>();
        for (int q = 0; q < queues; q++) {
            out.addAll(readQueue(client, group, topic, q, 0));
        }
        return out;
    }
}
