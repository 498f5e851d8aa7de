package dev.wharf.broker.processor;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BrokerStatus;
import dev.wharf.protocol.body.Json;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.util.function.Supplier;

/** GET_BROKER_STATUS: version, disk and held-back work of the broker ({@link BrokerStatus}). */
public final class BrokerStatusProcessor implements RequestProcessor {

    private final Supplier<BrokerStatus> status;

    public BrokerStatusProcessor(Supplier<BrokerStatus> status) {
        this.status = status;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return request.newResponse(ResponseCode.SUCCESS, null).setBody(Json.encode(status.get()));
    }
}
