package dev.wharf.broker.slave;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.OffsetHeaders.UpdateConsumerOffsetRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;

/**
 * A slave's offset requests: served by the ordinary processor, and an UPDATE_CONSUMER_OFFSET that it applied is
 * also remembered as slave-committed, so the next sync round neither overwrites it with the master's older value
 * nor loses it (it is handed back to the master). Thread-safe.
 */
public final class SlaveOffsetCommitProcessor implements RequestProcessor {

    private final RequestProcessor delegate;
    private final SlaveCommittedOffsets committed;

    public SlaveOffsetCommitProcessor(RequestProcessor delegate, SlaveCommittedOffsets committed) {
        this.delegate = delegate;
        this.committed = committed;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        RemotingCommand response = delegate.process(channel, request);
        if (request.code() == RequestCode.UPDATE_CONSUMER_OFFSET && response != null
                && response.code() == ResponseCode.SUCCESS && response.remark() == null) {
            UpdateConsumerOffsetRequest h = request.readHeader(UpdateConsumerOffsetRequest.class);
            committed.record(h.topic(), h.consumerGroup(), h.queueId(), h.commitOffset());
        }
        return response;
    }
}
