package dev.wharf.client.impl;

import dev.wharf.common.message.MessageBatchDecoder;
import dev.wharf.common.message.MessageExt;
import java.nio.ByteBuffer;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes the record batches brokers send (pull, pop, peek, query): a bad record is skipped, its neighbours
 * are kept, and one WARN line per bad batch says which records were bad and why. Compressed bodies stay
 * compressed: callers inflate them within their own size limit ({@link ReceivedBodies}). Stateless.
 */
final class BatchDecoding {

    private static final Logger log = LoggerFactory.getLogger(BatchDecoding.class);

    private BatchDecoding() {
    }

    /**
     * @param source what the batch answered and who sent it, for the log line (e.g. "PULL_MESSAGE from host:port")
     */
    static List<MessageExt> decode(byte[] body, String source) {
        return decodeBatch(body, source).messages();
    }

    /** As {@link #decode}, with each kept message's position in the batch. */
    static MessageBatchDecoder.Result decodeBatch(byte[] body, String source) {
        MessageBatchDecoder.Result result = MessageBatchDecoder.decode(ByteBuffer.wrap(body), true, false);
        if (!result.isClean()) {
            log.warn("{}: {} message(s) decoded, {} problem(s): {}", source, result.messages().size(),
                    result.problems().size(), String.join("; ", result.problems()));
        }
        return result;
    }
}
