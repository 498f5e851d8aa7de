package dev.wharf.client.impl;

import dev.wharf.common.message.BodyInflater;
import dev.wharf.common.message.BodyInflater.BodyInflateException;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.util.RateLimitedLog;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Inflates the compressed bodies of messages a broker hands out, each within the client's maxMessageSize
 * ({@link BodyInflater}). A body that would inflate beyond it, or does not inflate at all, cannot be given to
 * the application: the message is reported (an ERROR line naming it, rate-limited) and its caller skips it, so
 * one bad stored message neither exhausts the consumer's memory nor stops its queue. Thread-safe.
 */
final class ReceivedBodies {

    private static final Logger log = LoggerFactory.getLogger(ReceivedBodies.class);

    private final int maxBodySize;
    private final RateLimitedLog errors = RateLimitedLog.of(log);
    private final AtomicLong skipped = new AtomicLong();

    ReceivedBodies(int maxBodySize) {
        this.maxBodySize = maxBodySize;
    }

    /**
     * Inflates the message's body in place if it is compressed (and clears the flag).
     *
     * @return false when the message must be skipped (it was reported)
     */
    boolean inflate(String address, MessageExt msg) {
        if ((msg.getSysFlag() & MessageSysFlag.COMPRESSED) == 0 || msg.getBody() == null) {
            return true;
        }
        if (!MessageSysFlag.isZlibCompressed(msg.getSysFlag())) {
            long count = skipped.incrementAndGet();
            errors.error("codec", "Skipped message {} (topic {}, queue {}, offset {}) from broker {}: its body is"
                    + " compressed with {}, which this client cannot inflate (zlib only); have the producer use zlib,"
                    + " the default ({} skipped so far)", msg.getMsgId(), msg.getTopic(), msg.getQueueId(),
                    msg.getQueueOffset(), address, MessageSysFlag.compressionName(msg.getSysFlag()), count);
            return false;
        }
        try {
            msg.setBody(BodyInflater.inflate(msg.getBody(), maxBodySize));
            msg.setSysFlag(MessageSysFlag.withoutCompression(msg.getSysFlag()));
            return true;
        } catch (BodyInflateException e) {
            long count = skipped.incrementAndGet();
            String hint = e.tooLarge()
                    ? "raise ClientConfig.maxMessageSize (" + maxBodySize + ") if such bodies are legitimate"
                    : "the stored body is damaged";
            errors.error(e.tooLarge() ? "too-large" : "corrupt",
                    "Skipped message {} (topic {}, queue {}, offset {}) from broker {}: {}; {} ({} skipped so far)",
                    msg.getMsgId(), msg.getTopic(), msg.getQueueId(), msg.getQueueOffset(), address, e.getMessage(),
                    hint, count);
            return false;
        }
    }

    /** Messages skipped so far because their body could not be inflated within the limit. */
    long skipped() {
        return skipped.get();
    }
}
