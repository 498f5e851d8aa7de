package dev.wharf.broker.processor;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.Json;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.util.function.Supplier;

/** GET_BROKER_RUNTIME_INFO: the broker's identity and commit-log figures ({@link BrokerRuntime}). */
public final class BrokerRuntimeProcessor implements RequestProcessor {

    private final Supplier<BrokerRuntime> runtime;

    public BrokerRuntimeProcessor(Supplier<BrokerRuntime> runtime) {
        this.runtime = runtime;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return request.newResponse(ResponseCode.SUCCESS, null).setBody(Json.encode(runtime.get()));
    }
}
