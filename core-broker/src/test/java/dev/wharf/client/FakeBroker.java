package dev.wharf.client;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.DataVersion;
import dev.wharf.protocol.body.RouteData.RegisterBrokerBody;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.RouteHeaders.RegisterBrokerRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.remoting.RequestProcessor;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * A remoting server on 127.0.0.1 that speaks only the requests a test gives it processors for, and registers with
 * real NameServers like a broker does. For client unit tests that need to control what a broker answers.
 */
public final class FakeBroker implements AutoCloseable {

    private final String name;
    private final NettyRemotingServer server;
    private final ExecutorService executor = RemotingExecutors.bounded("fake-broker", 4, 1000);
    private final NettyRemotingClient registrar = new NettyRemotingClient(new NettyClientConfig());

    public FakeBroker(String name) {
        this.name = name;
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(0);
        server = new NettyRemotingServer(config);
        server.registerProcessor(RequestCode.HEART_BEAT,
                (channel, request) -> RemotingCommand.createResponse(ResponseCode.SUCCESS, null), executor);
        server.registerProcessor(RequestCode.UNREGISTER_CLIENT,
                (channel, request) -> RemotingCommand.createResponse(ResponseCode.SUCCESS, null), executor);
        server.start();
        registrar.start();
    }

    public String name() {
        return name;
    }

    public String address() {
        return server.localAddress();
    }

    public FakeBroker handle(int code, RequestProcessor processor) {
        server.registerProcessor(code, processor, executor);
        return this;
    }

    /** REGISTER_BROKER with the NameServer, as master of {@link #name()} in cluster "DefaultCluster". */
    public void registerWith(String namesrvAddr, TopicConfig... topics) throws Exception {
        Map<String, TopicConfig> table = new HashMap<>();
        for (TopicConfig t : topics) {
            table.put(t.topicName(), t);
        }
        RemotingCommand request = RemotingCommand.createRequest(RequestCode.REGISTER_BROKER);
        HeaderCodec.encode(new RegisterBrokerRequest(name, address(), "DefaultCluster", 0, null))
                .forEach(request::putExt);
        request.setBody(Json.encode(new RegisterBrokerBody(table, new DataVersion(System.currentTimeMillis(), 1))));
        RemotingCommand response = registrar.invokeSync(namesrvAddr, request, 3000);
        if (response.code() != ResponseCode.SUCCESS) {
            throw new IllegalStateException("registration refused: " + response);
        }
    }

    @Override
    public void close() {
        registrar.shutdown();
        server.shutdown();
        executor.shutdownNow();
    }
}
