package dev.wharf.client.impl;

import dev.wharf.client.ClientException;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.Stats.ConsumeStats;
import dev.wharf.protocol.body.Stats.QueueOffset;
import dev.wharf.protocol.body.Stats.ResetOffsetBody;
import dev.wharf.protocol.body.Stats.TopicStats;
import dev.wharf.protocol.header.OffsetHeaders.ConsumeStatsRequest;
import dev.wharf.protocol.header.OffsetHeaders.OffsetResponse;
import dev.wharf.protocol.header.OffsetHeaders.QueryConsumerOffsetRequest;
import dev.wharf.protocol.header.OffsetHeaders.QueueRequest;
import dev.wharf.protocol.header.OffsetHeaders.ResetOffsetRequest;
import dev.wharf.protocol.header.OffsetHeaders.SearchOffsetRequest;
import dev.wharf.protocol.header.OffsetHeaders.UpdateConsumerOffsetRequest;
import dev.wharf.protocol.header.RouteHeaders.TopicRequest;
import java.util.List;

/** Offset requests to a broker: consumer offsets, queue bounds, offset by time, reset, statistics. Thread-safe. */
public final class OffsetApi {

    /** Answer of {@link #queryConsumerOffset} when the group has no committed offset for the queue. */
    public static final long NO_OFFSET = -1L;

    private final RemotingCalls calls;

    public OffsetApi(RemotingCalls calls) {
        this.calls = calls;
    }

    /** The group's committed offset, or {@link #NO_OFFSET}. */
    public long queryConsumerOffset(String address, String group, String topic, int queueId, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invoke(address, RemotingCalls.request(RequestCode.QUERY_CONSUMER_OFFSET,
                new QueryConsumerOffsetRequest(group, topic, queueId)), timeoutMillis);
        if (response.code() == ResponseCode.QUERY_NOT_FOUND) {
            return NO_OFFSET;
        }
        if (response.code() != ResponseCode.SUCCESS) {
            throw RemotingCalls.refused(address, RequestCode.QUERY_CONSUMER_OFFSET, response);
        }
        return MessageApi.decodeHeader(address, response, OffsetResponse.class).offset();
    }

    /** Commits an offset and waits for the broker to take it. */
    public void updateConsumerOffset(String address, String group, String topic, int queueId, long offset,
                                     long timeoutMillis) throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.UPDATE_CONSUMER_OFFSET,
                new UpdateConsumerOffsetRequest(group, topic, queueId, offset)), timeoutMillis);
    }

    public long maxOffset(String address, String topic, int queueId, long timeoutMillis)
            throws ClientException, InterruptedException {
        return offset(address, RequestCode.GET_MAX_OFFSET, new QueueRequest(topic, queueId), timeoutMillis);
    }

    public long minOffset(String address, String topic, int queueId, long timeoutMillis)
            throws ClientException, InterruptedException {
        return offset(address, RequestCode.GET_MIN_OFFSET, new QueueRequest(topic, queueId), timeoutMillis);
    }

    public long earliestMsgStoreTime(String address, String topic, int queueId, long timeoutMillis)
            throws ClientException, InterruptedException {
        return offset(address, RequestCode.GET_EARLIEST_MSG_STORETIME, new QueueRequest(topic, queueId), timeoutMillis);
    }

    /** The offset of the first message stored at or after {@code timestamp} (epoch ms). */
    public long searchOffset(String address, String topic, int queueId, long timestamp, long timeoutMillis)
            throws ClientException, InterruptedException {
        return offset(address, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, new SearchOffsetRequest(topic, queueId,
                timestamp), timeoutMillis);
    }

    private long offset(String address, int code, Record header, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address, RemotingCalls.request(code, header),
                timeoutMillis);
        return MessageApi.decodeHeader(address, response, OffsetResponse.class).offset();
    }

    /** Moves the group's offsets of the topic on this broker; answers the new offsets. */
    public List<QueueOffset> resetOffset(String address, ResetOffsetRequest header, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, header), timeoutMillis);
        if (response.body() == null || response.body().length == 0) {
            return List.of();
        }
        ResetOffsetBody body = Json.decode(response.body(), ResetOffsetBody.class);
        return body.offsetTable() == null ? List.of() : body.offsetTable();
    }

    public ConsumeStats consumeStats(String address, String group, String topic, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.GET_CONSUME_STATS, new ConsumeStatsRequest(group, topic)),
                timeoutMillis);
        return Json.decode(response.body(), ConsumeStats.class);
    }

    public TopicStats topicStats(String address, String topic, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.GET_TOPIC_STATS_INFO, new TopicRequest(topic)), timeoutMillis);
        return Json.decode(response.body(), TopicStats.class);
    }
}
