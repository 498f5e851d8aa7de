package dev.wharf.broker.processor;

import dev.wharf.broker.offset.ConsumerOffsetManager;
import dev.wharf.common.TopicValidator;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandException;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.OffsetHeaders.OffsetResponse;
import dev.wharf.protocol.header.OffsetHeaders.QueryConsumerOffsetRequest;
import dev.wharf.protocol.header.OffsetHeaders.QueueRequest;
import dev.wharf.protocol.header.OffsetHeaders.SearchOffsetRequest;
import dev.wharf.protocol.header.OffsetHeaders.UpdateConsumerOffsetRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageStore;

/**
 * Offsets: QUERY_CONSUMER_OFFSET (QUERY_NOT_FOUND when the group never committed one), UPDATE_CONSUMER_OFFSET,
 * and the queue bounds GET_MAX_OFFSET, GET_MIN_OFFSET, SEARCH_OFFSET_BY_TIMESTAMP, GET_EARLIEST_MSG_STORETIME,
 * each answered with an {@link OffsetResponse}.
 */
public final class ConsumerOffsetProcessor implements RequestProcessor {

    private final ConsumerOffsetManager offsets;
    private final MessageStore store;

    public ConsumerOffsetProcessor(ConsumerOffsetManager offsets, MessageStore store) {
        this.offsets = offsets;
        this.store = store;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        switch (request.code()) {
            case RequestCode.QUERY_CONSUMER_OFFSET: {
                QueryConsumerOffsetRequest h = ProcessorSupport.header(request, QueryConsumerOffsetRequest.class);
                check(h.topic(), h.consumerGroup(), h.queueId());
                long offset = offsets.queryOffsetForConsumer(h.consumerGroup(), h.topic(), h.queueId());
                if (offset < 0) {
                    return ProcessorSupport.answer(request, ResponseCode.QUERY_NOT_FOUND, "The group "
                            + h.consumerGroup() + " has no committed offset for " + h.topic() + "#" + h.queueId()
                            + "; start from the first or last offset as the consumer is configured.");
                }
                return offset(request, offset);
            }
            case RequestCode.UPDATE_CONSUMER_OFFSET: {
                UpdateConsumerOffsetRequest h = ProcessorSupport.header(request, UpdateConsumerOffsetRequest.class);
                check(h.topic(), h.consumerGroup(), h.queueId());
                if (h.commitOffset() < 0) {
                    throw new RemotingCommandException("commitOffset is " + h.commitOffset()
                            + "; offsets start at 0.", "commitOffset", String.valueOf(h.commitOffset()));
                }
                boolean applied = offsets.commitOffset(h.consumerGroup(), h.topic(), h.queueId(), h.commitOffset());
                return ProcessorSupport.answer(request, ResponseCode.SUCCESS, applied ? null
                        : "Ignored: the group's offsets of " + h.topic() + " were reset; re-read them first.");
            }
            case RequestCode.GET_MAX_OFFSET: {
                QueueRequest h = ProcessorSupport.header(request, QueueRequest.class);
                check(h.topic(), null, h.queueId());
                return offset(request, store.getMaxOffsetInQueue(h.topic(), h.queueId()));
            }
            case RequestCode.GET_MIN_OFFSET: {
                QueueRequest h = ProcessorSupport.header(request, QueueRequest.class);
                check(h.topic(), null, h.queueId());
                return offset(request, store.getMinOffsetInQueue(h.topic(), h.queueId()));
            }
            case RequestCode.GET_EARLIEST_MSG_STORETIME: {
                QueueRequest h = ProcessorSupport.header(request, QueueRequest.class);
                check(h.topic(), null, h.queueId());
                return offset(request, store.getEarliestMessageTime(h.topic(), h.queueId()));
            }
            case RequestCode.SEARCH_OFFSET_BY_TIMESTAMP: {
                SearchOffsetRequest h = ProcessorSupport.header(request, SearchOffsetRequest.class);
                check(h.topic(), null, h.queueId());
                return offset(request, store.getOffsetInQueueByTime(h.topic(), h.queueId(), h.timestamp()));
            }
            default:
                return ProcessorSupport.answer(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                        RequestCode.NAMES.describe(request.code()) + " is not served by the offset processor");
        }
    }

    private static void check(String topic, String group, int queueId) throws RemotingCommandException {
        String error = TopicValidator.check(topic);
        if (error == null && group != null) {
            error = TopicValidator.checkGroup(group);
        }
        if (error != null) {
            throw new RemotingCommandException(error);
        }
        if (queueId < 0) {
            throw new RemotingCommandException("queueId is " + queueId + "; queue ids start at 0.", "queueId",
                    String.valueOf(queueId));
        }
    }

    private static RemotingCommand offset(RemotingCommand request, long value) {
        return ProcessorSupport.writeHeader(ProcessorSupport.answer(request, ResponseCode.SUCCESS, null),
                new OffsetResponse(value));
    }
}
