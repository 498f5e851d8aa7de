package dev.wharf.broker.transaction;

import dev.wharf.broker.group.ProducerManager;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.RecordTopicRewrite;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.header.TransactionHeaders.CheckTransactionStateRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.exception.RemotingException;
import dev.wharf.store.MessageStore;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a live producer of a transaction's group what became of it: CHECK_TRANSACTION_STATE, one-way, over the
 * producer's own connection, with the transaction's first half record as the body. Any member of the group may
 * answer (the producer that sent the halves may be gone); members are taken in turn, and one whose connection
 * fails is skipped for the next. The answer comes back as END_TRANSACTION with fromTransactionCheck = true.
 * Thread-safe.
 */
final class TransactionChecker {

    private static final Logger log = LoggerFactory.getLogger(TransactionChecker.class);

    enum Asked {
        /** The request went out to a member of the group. */
        SENT,
        /** No member of the group is connected (or every send failed): nothing was asked. */
        NO_PRODUCER,
        /** The first half message is no longer stored. */
        HALF_GONE
    }

    private final MessageStore store;
    private final ProducerManager producers;
    private final AtomicInteger turn = new AtomicInteger();
    private final LongAdder sent = new LongAdder();

    TransactionChecker(MessageStore store, ProducerManager producers) {
        this.store = store;
        this.producers = producers;
    }

    Asked ask(OpenTransaction tx) {
        List<RemotingChannel> channels = producers.producerChannels(tx.producerGroup());
        if (channels.isEmpty()) {
            return Asked.NO_PRODUCER;
        }
        long firstHalf = tx.commitLogOffset(0);
        byte[] record = readRecord(firstHalf);
        if (record == null) {
            return Asked.HALF_GONE;
        }
        MessageExt half = MessageDecoder.decode(ByteBuffer.wrap(record), false, false);
        String msgId = half == null ? null : half.getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
        CheckTransactionStateRequest header = new CheckTransactionStateRequest(tx.id(), firstHalf, msgId,
                tx.producerGroup());
        String realTopic = half == null ? null : half.getProperty(MessageProperties.REAL_TOPIC);
        byte[] body = record;
        if (realTopic != null) {
            // the producer checks the message it sent: its own topic and queue, not the half topic's
            byte[] rewritten = RecordTopicRewrite.rewrite(record, realTopic, realQueueId(half));
            body = rewritten == null ? record : rewritten;
        }
        int start = Math.floorMod(turn.getAndIncrement(), channels.size());
        for (int i = 0; i < channels.size(); i++) {
            RemotingChannel channel = channels.get((start + i) % channels.size());
            RemotingCommand request = RemotingCommand.createRequest(RequestCode.CHECK_TRANSACTION_STATE)
                    .writeHeader(header).setBody(body);
            // RocketMQ's producers require the half's queue offset and echo it in END_TRANSACTION
            request.putExt("tranStateTableOffset", half == null ? 0L : half.getQueueOffset());
            if (realTopic != null) {
                request.putExt("topic", realTopic);
            }
            try {
                channel.invokeOneway(request);
                sent.increment();
                return Asked.SENT;
            } catch (RemotingException e) {
                log.debug("Could not ask producer {} about {}: {}", channel.remoteAddress(), tx, e.getMessage());
            }
        }
        return Asked.NO_PRODUCER;
    }

    /** Check-back requests sent to producers since start. */
    long sentCount() {
        return sent.sum();
    }

    private static int realQueueId(MessageExt half) {
        String raw = half.getProperty(MessageProperties.REAL_QUEUE_ID);
        try {
            return raw == null ? half.getQueueId() : Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            return half.getQueueId();
        }
    }

    private byte[] readRecord(long commitLogOffset) {
        SelectMappedBufferResult record = store.selectOneMessageByOffset(commitLogOffset);
        if (record == null) {
            return null;
        }
        try {
            byte[] bytes = new byte[record.size()];
            record.byteBuffer().duplicate().get(bytes);
            return bytes;
        } finally {
            record.release();
        }
    }
}
