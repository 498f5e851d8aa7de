package dev.wharf.broker.processor;

import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.MessageHeaders.QueryMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.QueryMessageResponse;
import dev.wharf.protocol.header.MessageHeaders.ViewMessageRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageStore;
import dev.wharf.store.QueryMessageResult;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * QUERY_MESSAGE (by key through the index, newest first) and VIEW_MESSAGE_BY_ID (by commit-log offset).
 * Both answer with stored records as the body, sent from the mapped files; nothing found is QUERY_NOT_FOUND.
 */
public final class QueryMessageProcessor implements RequestProcessor {

    /** Messages a query returns when it asks for none or too many. */
    static final int DEFAULT_MAX_NUM = 32;
    static final int LIMIT_MAX_NUM = 1000;

    private final MessageStore store;
    private final String brokerName;

    public QueryMessageProcessor(MessageStore store, String brokerName) {
        this.store = store;
        this.brokerName = brokerName;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        return switch (request.code()) {
            case RequestCode.QUERY_MESSAGE -> query(request);
            case RequestCode.VIEW_MESSAGE_BY_ID -> view(request);
            default -> ProcessorSupport.answer(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    RequestCode.NAMES.describe(request.code()) + " is not served by the query processor");
        };
    }

    private RemotingCommand query(RemotingCommand request) throws Exception {
        QueryMessageRequest h = ProcessorSupport.header(request, QueryMessageRequest.class);
        String error = TopicValidator.check(h.topic());
        if (error != null) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, error);
        }
        if (h.key().isEmpty()) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID,
                    "The key is empty; give a message key or unique id to look for.");
        }
        int maxNum = h.maxNum() <= 0 ? DEFAULT_MAX_NUM : Math.min(h.maxNum(), LIMIT_MAX_NUM);
        long end = h.endTimestamp() <= 0 ? Long.MAX_VALUE : h.endTimestamp();
        QueryMessageResult result = store.queryMessage(h.topic(), h.key(), maxNum, Math.max(0L, h.beginTimestamp()), end);
        if (result == null || result.buffers().isEmpty()) {
            if (result != null) {
                result.release();
            }
            return ProcessorSupport.answer(request, ResponseCode.QUERY_NOT_FOUND, "No message of topic "
                    + h.topic() + " with key \"" + h.key() + "\" was found on broker " + brokerName
                    + " in the given time range.");
        }
        RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        ProcessorSupport.writeHeader(response, new QueryMessageResponse(result.indexLastUpdateTimestamp(),
                result.indexLastUpdatePhyoffset()));
        List<ByteBuffer> bodies = new ArrayList<>(result.buffers().size());
        for (SelectMappedBufferResult buffer : result.buffers()) {
            bodies.add(buffer.byteBuffer());
        }
        response.setBodyBuffers(bodies, result::release);
        return response;
    }

    private RemotingCommand view(RemotingCommand request) throws Exception {
        ViewMessageRequest h = ProcessorSupport.header(request, ViewMessageRequest.class);
        SelectMappedBufferResult record = h.offset() < 0 ? null : store.selectOneMessageByOffset(h.offset());
        if (record == null || !isWholeRecord(record)) {
            if (record != null) {
                record.release();
            }
            return ProcessorSupport.answer(request, ResponseCode.QUERY_NOT_FOUND, "No message starts at commit-log"
                    + " offset " + h.offset() + " on broker " + brokerName + " (it may have been cleaned up, or the"
                    + " id belongs to another broker).");
        }
        RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        response.setBodyBuffers(List.of(record.byteBuffer()), record::release);
        return response;
    }

    /** Guards against an offset that is not the start of a record (a forged or stale id). */
    private static boolean isWholeRecord(SelectMappedBufferResult record) {
        ByteBuffer buffer = record.byteBuffer();
        int start = buffer.position();
        return record.size() >= MessageRecord.BODY_OFFSET
                && buffer.getInt(start + MessageRecord.MAGIC_CODE_OFFSET) == MessageRecord.MESSAGE_MAGIC_CODE
                && buffer.getInt(start + MessageRecord.TOTAL_SIZE_OFFSET) == record.size();
    }
}
