package dev.wharf.broker.processor;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.RocketMqVersions;
import dev.wharf.protocol.body.RocketMqBodies;
import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.Json;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.util.Map;
import java.util.function.Supplier;

/**
 * GET_BROKER_RUNTIME_INFO: the broker's identity and commit-log figures ({@link BrokerRuntime}); RocketMQ's tools get
 * RocketMQ's key-value table instead.
 */
public final class BrokerRuntimeProcessor implements RequestProcessor {

    private final Supplier<BrokerRuntime> runtime;
    private final Supplier<Map<String, String>> rocketMqTable;

    /**
     * @param rocketMqTable the runtime table under RocketMQ's key names, the answer RocketMQ's tools get
     */
    public BrokerRuntimeProcessor(Supplier<BrokerRuntime> runtime, Supplier<Map<String, String>> rocketMqTable) {
        this.runtime = runtime;
        this.rocketMqTable = rocketMqTable;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        byte[] body = RocketMqVersions.fromRocketMqClient(request)
                ? RocketMqBodies.kvTable(rocketMqTable.get()) : Json.encode(runtime.get());
        return request.newResponse(ResponseCode.SUCCESS, null).setBody(body);
    }
}
