package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.AckHeaders.AckMessageRequest;
import dev.wharf.protocol.header.AckHeaders.AckStatsRequest;
import dev.wharf.protocol.header.AckHeaders.ChangeInvisibleTimeRequest;
import dev.wharf.protocol.header.AckHeaders.CreateAckGroupRequest;
import dev.wharf.protocol.header.AckHeaders.DeleteAckGroupRequest;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.protocol.header.AckHeaders.PeekMessageRequest;
import dev.wharf.protocol.header.AckHeaders.PeekMessageResponse;
import dev.wharf.protocol.header.AckHeaders.PopMessageRequest;
import dev.wharf.protocol.header.AckHeaders.PopMessageResponse;
import dev.wharf.protocol.header.HeaderCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/** Acknowledgement-based consumption over the raw protocol: one connection, typed requests, decoded answers. */
final class AckProtocol implements AutoCloseable {

    /** A popped or peeked message with the count the broker reported. */
    record Got(MessageExt msg, int count) {
        String body() {
            return new String(msg.getBody(), StandardCharsets.UTF_8);
        }

        long offset() {
            return msg.getQueueOffset();
        }

        int queueId() {
            return msg.getQueueId();
        }
    }

    /** A pop answer. */
    record Popped(int code, List<Got> messages, boolean moreToScan) {
        List<String> bodies() {
            return messages.stream().map(Got::body).toList();
        }
    }

    /** A peek answer. */
    record Peeked(List<Got> messages, long nextOffset, long maxOffset) {
        List<String> bodies() {
            return messages.stream().map(Got::body).toList();
        }
    }

    final ProtocolClient client;
    final String group;

    AckProtocol(String address, String group) {
        this.client = new ProtocolClient(address);
        this.group = group;
    }

    static PopMessageRequest popHeader(String group, String topic, int queueId, int max, long invisible, long poll,
                                       String sql, InitMode mode, boolean skipUnmatched, Integer maxReconsume) {
        return new PopMessageRequest(group, topic, queueId, max, invisible, poll, sql == null ? "TAG" : "SQL92",
                sql == null ? "*" : sql, mode, skipUnmatched, maxReconsume);
    }

    RemotingCommand popRaw(PopMessageRequest header) throws Exception {
        RemotingCommand request = ProtocolClient.request(RequestCode.POP_MESSAGE, header);
        return client.client().invokeSync(client.address(), request, header.pollTime() + ProtocolClient.TIMEOUT);
    }

    Popped pop(String topic, int queueId, int max, long invisible, long poll, String sql) throws Exception {
        return pop(popHeader(group, topic, queueId, max, invisible, poll, sql, InitMode.EARLIEST, false, null));
    }

    Popped pop(PopMessageRequest header) throws Exception {
        RemotingCommand r = popRaw(header);
        assertThat(r.code()).as("%s %s", ResponseCode.NAMES.name(r.code()), r.remark())
                .isIn(ResponseCode.SUCCESS, ResponseCode.NO_MESSAGE, ResponseCode.POLLING_TIMEOUT);
        PopMessageResponse h = HeaderCodec.decode(r.extFields(), PopMessageResponse.class);
        List<MessageExt> msgs = ProtocolClient.messages(r);
        List<Got> got = new ArrayList<>();
        int[] counts = counts(h.deliveryCounts());
        assertThat(counts).hasSize(msgs.size());
        for (int i = 0; i < msgs.size(); i++) {
            got.add(new Got(msgs.get(i), counts[i]));
        }
        return new Popped(r.code(), got, h.moreToScan());
    }

    private static int[] counts(String list) {
        if (list == null || list.isEmpty()) {
            return new int[0];
        }
        return Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    RemotingCommand ackRaw(String topic, int queueId, String offsets) throws Exception {
        return client.invoke(RequestCode.ACK_MESSAGE, new AckMessageRequest(group, topic, queueId, offsets));
    }

    void ack(String topic, Collection<Got> messages) throws Exception {
        for (var byQueue : messages.stream().collect(Collectors.groupingBy(Got::queueId)).entrySet()) {
            RemotingCommand r = ackRaw(topic, byQueue.getKey(), join(byQueue.getValue()));
            assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
        }
    }

    RemotingCommand changeRaw(String topic, int queueId, String offsets, String counts, long invisible,
                              boolean countDelivery) throws Exception {
        return client.invoke(RequestCode.CHANGE_MESSAGE_INVISIBLETIME, new ChangeInvisibleTimeRequest(group, topic,
                queueId, offsets, counts, invisible, countDelivery));
    }

    void change(String topic, Collection<Got> messages, long invisible, boolean countDelivery) throws Exception {
        for (var byQueue : messages.stream().collect(Collectors.groupingBy(Got::queueId)).entrySet()) {
            String counts = byQueue.getValue().stream().map(g -> Integer.toString(g.count()))
                    .collect(Collectors.joining(","));
            RemotingCommand r = changeRaw(topic, byQueue.getKey(), join(byQueue.getValue()), counts, invisible,
                    countDelivery);
            assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
        }
    }

    Peeked peek(String topic, int queueId, long from, int max, String sql) throws Exception {
        RemotingCommand r = client.invoke(RequestCode.PEEK_MESSAGE, new PeekMessageRequest(group, topic, queueId, from,
                max, sql == null ? "TAG" : "SQL92", sql == null ? "*" : sql));
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
        PeekMessageResponse h = HeaderCodec.decode(r.extFields(), PeekMessageResponse.class);
        List<MessageExt> msgs = ProtocolClient.messages(r);
        int[] counts = counts(h.deliveryCounts());
        List<Got> got = new ArrayList<>();
        for (int i = 0; i < msgs.size(); i++) {
            got.add(new Got(msgs.get(i), counts[i]));
        }
        return new Peeked(got, h.nextOffset(), h.maxOffset());
    }

    /** Every message still there for the group on one queue (peeks until the end). */
    List<String> browse(String topic, int queueId) throws Exception {
        List<String> out = new ArrayList<>();
        long from = 0;
        while (true) {
            Peeked p = peek(topic, queueId, from, 32, null);
            out.addAll(p.bodies());
            if (p.nextOffset() >= p.maxOffset() || p.nextOffset() <= from) {
                return out;
            }
            from = p.nextOffset();
        }
    }

    void create(String topic, InitMode mode) throws Exception {
        RemotingCommand r = client.invoke(RequestCode.CREATE_ACK_GROUP, new CreateAckGroupRequest(group, topic, mode));
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
    }

    void delete(String topic) throws Exception {
        RemotingCommand r = client.invoke(RequestCode.DELETE_ACK_GROUP, new DeleteAckGroupRequest(group, topic));
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
    }

    AckStats stats(String topic) throws Exception {
        RemotingCommand r = client.invoke(RequestCode.GET_ACK_STATS, new AckStatsRequest(group, topic));
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
        return Json.decode(r.body(), AckStats.class);
    }

    static String join(Collection<Got> messages) {
        return messages.stream().map(g -> Long.toString(g.offset())).collect(Collectors.joining(","));
    }

    @Override
    public void close() {
        client.close();
    }
}
