package dev.wharf.broker;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.PullMessageResponse;
import dev.wharf.protocol.header.MessageHeaders.PullSysFlag;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageResponse;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.remoting.RequestProcessor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/** Speaks the broker protocol over a real connection: typed requests in, responses out. One connection. */
final class ProtocolClient implements AutoCloseable {

    static final long TIMEOUT = 5_000;

    private final NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
    private final ExecutorService executor = RemotingExecutors.bounded("test-client-processor", 1, 100);
    private final String address;

    ProtocolClient(String address) {
        this.address = address;
        client.start();
    }

    /** Serves a request the broker sends over this client's connection. */
    void onRequest(int code, RequestProcessor processor) {
        client.registerProcessor(code, processor, executor);
    }

    static RemotingCommand request(int code, Record header) {
        RemotingCommand request = RemotingCommand.createRequest(code);
        if (header != null) {
            HeaderCodec.encode(header).forEach(request::putExt);
        }
        return request;
    }

    RemotingCommand invoke(RemotingCommand request) throws Exception {
        return client.invokeSync(address, request, TIMEOUT);
    }

    RemotingCommand invoke(int code, Record header) throws Exception {
        return invoke(request(code, header));
    }

    RemotingCommand invoke(int code, Record header, byte[] body) throws Exception {
        return invoke(request(code, header).setBody(body));
    }

    RemotingCommand invokeJson(int code, Object body) throws Exception {
        return invoke(request(code, null).setBody(Json.encode(body)));
    }

    CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, long timeoutMillis) {
        return client.invokeAsync(address, request, timeoutMillis);
    }

    void oneway(RemotingCommand request) throws Exception {
        client.invokeOneway(address, request, TIMEOUT);
    }

    static SendMessageRequest sendHeader(String topic, int queueId, Map<String, String> properties) {
        return new SendMessageRequest("test-producer", topic, 0, queueId, 0, System.currentTimeMillis(), 0,
                MessageDecoder.encodeProperties(properties), 0, null, false);
    }

    RemotingCommand send(String topic, int queueId, byte[] body, Map<String, String> properties) throws Exception {
        return invoke(RequestCode.SEND_MESSAGE, sendHeader(topic, queueId, properties), body);
    }

    /** Sends and expects SUCCESS. */
    SendMessageResponse sendOk(String topic, int queueId, byte[] body, Map<String, String> properties) throws Exception {
        RemotingCommand response = send(topic, queueId, body, properties);
        if (response.code() != ResponseCode.SUCCESS) {
            throw new AssertionError("send failed: " + ResponseCode.NAMES.name(response.code()) + " " + response.remark());
        }
        return HeaderCodec.decode(response.extFields(), SendMessageResponse.class);
    }

    static PullMessageRequest pullHeader(String group, String topic, int queueId, long offset, int max, String expression,
                                         String type, long suspendMillis) {
        int flags = PullSysFlag.SUBSCRIPTION | (suspendMillis > 0 ? PullSysFlag.SUSPEND : 0);
        return new PullMessageRequest(group, topic, queueId, offset, max, flags, 0, suspendMillis, expression, 0, type);
    }

    RemotingCommand pull(String group, String topic, int queueId, long offset, int max, String expression,
                         String type) throws Exception {
        return invoke(RequestCode.PULL_MESSAGE, pullHeader(group, topic, queueId, offset, max, expression, type, 0));
    }

    static List<MessageExt> messages(RemotingCommand response) {
        if (response.body() == null) {
            return List.of();
        }
        return MessageDecoder.decodeAll(ByteBuffer.wrap(response.body()), true, true);
    }

    static PullMessageResponse pullResponse(RemotingCommand response) {
        return HeaderCodec.decode(response.extFields(), PullMessageResponse.class);
    }

    NettyRemotingClient client() {
        return client;
    }

    String address() {
        return address;
    }

    @Override
    public void close() {
        client.shutdown();
        executor.shutdownNow();
    }
}
