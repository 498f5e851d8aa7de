package dev.wharf.broker.slave;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;

/**
 * A slave's answer to requests only a master serves (acknowledgement-based consumption, whose state changes
 * are writes): SERVICE_NOT_AVAILABLE naming the broker and what to do, so a client tries the group's master or
 * another group.
 */
public final class MasterOnlyProcessor implements RequestProcessor {

    private final String brokerName;
    private final long brokerId;

    public MasterOnlyProcessor(String brokerName, long brokerId) {
        this.brokerName = brokerName;
        this.brokerId = brokerId;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return request.newResponse(ResponseCode.SERVICE_NOT_AVAILABLE, "Broker " + brokerName + " id=" + brokerId
                + " is a slave; " + RequestCode.NAMES.name(request.code()) + " is served by the master of the group only."
                + " Send it to the master (brokerId 0) or, while the master is down, to another broker group.");
    }
}
