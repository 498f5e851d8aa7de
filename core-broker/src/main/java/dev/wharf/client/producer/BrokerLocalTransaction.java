package dev.wharf.client.producer;

import dev.wharf.client.ClientException;
import dev.wharf.client.route.TopicPublishInfo;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link LocalTransaction} of a {@link TransactionProducer}: half messages under one id on the broker of the
 * first message, one queue per topic, one END_TRANSACTION at the end. Not thread-safe.
 */
final class BrokerLocalTransaction implements LocalTransaction {

    private enum State { OPEN, COMMITTED, ROLLED_BACK, FAILED }

    private final TransactionProducer producer;
    private final String id;
    private final Map<String, MessageQueue> queueByTopic = new HashMap<>();
    private String brokerName;
    private int sent;
    private State state = State.OPEN;
    /** Streamed halves that may be unanswered at once; 0 = every send waits for its answer (and the disk). */
    private final int window;
    /** Streaming: the answers still outstanding (permits taken) and the first failure among them. */
    private final Semaphore inFlight;
    private final AtomicReference<Throwable> streamFailure = new AtomicReference<>();
    /** Streaming: the newest message, held back until the next send or the commit (which sends it forced). */
    private Message tail;
    private OutgoingMessage tailOut;
    private MessageQueue tailQueue;
    /** Streaming: the messages not sent yet, committed as one batch if nothing else was sent. */
    private final HeldMessages held;
    /** Whether the commit went (or goes) out as one batch of the held messages. */
    private boolean batchCommit;

    BrokerLocalTransaction(TransactionProducer producer, String id) {
        this(producer, id, 0, 0);
    }

    BrokerLocalTransaction(TransactionProducer producer, String id, int window, int holdBytes) {
        this.producer = producer;
        this.id = id;
        this.window = window;
        this.inFlight = window > 0 ? new Semaphore(window) : null;
        this.held = new HeldMessages(window > 0 ? Math.min(holdBytes, producer.getMaxMessageSize()) : 0);
    }

    @Override
    public String transactionId() {
        return id;
    }

    @Override
    public SendResult send(Message msg) throws ClientException, InterruptedException {
        checkOpen("send a message in");
        spillHeld();
        producer.markHalf(msg, id);
        MessageSender sender = producer.started();
        if (window > 0 && brokerName != null) {
            return stream(sender, msg, queueOnBroker(sender, msg.getTopic()));
        }
        OutgoingMessage out = OutgoingMessage.of(msg, producer.getMaxMessageSize(), producer.getCompressMsgBodyOverHowmuch());
        SendResult result = brokerName == null ? sendFirst(sender, out) : sendOnBroker(sender, out);
        sent++;
        return result;
    }

    @Override
    public SendResult send(Message msg, MessageQueue mq) throws ClientException, InterruptedException {
        checkOpen("send a message in");
        if (mq == null || mq.queueId() < 0) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The queue is " + mq + "; give a queue of the"
                    + " topic's route, or send without a queue.");
        }
        if (!mq.topic().equals(msg.getTopic())) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The message is for topic " + msg.getTopic()
                    + " but the queue " + mq + " belongs to topic " + mq.topic() + ".");
        }
        if (brokerName != null && !brokerName.equals(mq.brokerName())) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "Transaction " + id + " keeps its messages on"
                    + " broker " + brokerName + ", and the queue " + mq + " is on another one; send to a queue of "
                    + brokerName + ", or without a queue.");
        }
        MessageQueue chosen = queueByTopic.get(msg.getTopic());
        if (chosen != null && !chosen.equals(mq)) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "Transaction " + id + " sends topic "
                    + msg.getTopic() + " to queue " + chosen + "; the messages of a topic keep to one queue within a"
                    + " transaction.");
        }
        MessageSender sender = producer.started();
        if (window > 0) {
            if (sent == 0 && tail == null) {
                SendResult kept = hold(msg, mq);
                if (kept != null) {
                    return kept;
                }
            }
            spillHeld();
            producer.markHalf(msg, id);
            return stream(sender, msg, mq);
        }
        producer.markHalf(msg, id);
        OutgoingMessage out = OutgoingMessage.of(msg, producer.getMaxMessageSize(), producer.getCompressMsgBodyOverHowmuch());
        SendResult result = sender.sendToQueue(out, mq, producer.getSendMsgTimeout());
        brokerName = mq.brokerName();
        remember(out.topic, mq);
        sent++;
        return inRealQueue(result, mq);
    }

    /** The first message may go to any broker: queue choice and retries as a plain send. */
    private SendResult sendFirst(MessageSender sender, OutgoingMessage out) throws ClientException, InterruptedException {
        TopicPublishInfo info = sender.requirePublishInfo(out.topic);
        int attempts = 1 + producer.getRetryTimesWhenSendFailed();
        String avoid = null;
        ClientException last = null;
        for (int i = 0; i < attempts; i++) {
            MessageQueue mq = info.select(avoid);
            try {
                SendResult result = sender.sendToQueue(out, mq, producer.getSendMsgTimeout());
                brokerName = mq.brokerName();
                remember(out.topic, chosenQueue(result, mq));
                return inRealQueue(result, mq);
            } catch (ClientException e) {
                // no half of this transaction is stored yet (unless an unanswered attempt was): any broker will do
                if (!MessageSender.retriable(e)) {
                    throw e;
                }
                last = e;
                avoid = mq.brokerName();
            }
        }
        throw last;
    }

    /** Later messages go to the transaction's broker, so that one END_TRANSACTION decides all of them. */
    private SendResult sendOnBroker(MessageSender sender, OutgoingMessage out) throws ClientException, InterruptedException {
        MessageQueue mq = queueOnBroker(sender, out.topic);
        SendResult result = sender.sendToQueue(out, mq, producer.getSendMsgTimeout());
        remember(out.topic, chosenQueue(result, mq));
        return inRealQueue(result, mq);
    }

    /**
     * The queue a half went to: the one it was sent to, or, when the broker chose (the topic had no route yet), the
     * one its answer names. Pinning that one keeps the transaction's later messages of the topic behind it even
     * after the route arrives.
     */
    private static MessageQueue chosenQueue(SendResult result, MessageQueue sentTo) {
        if (sentTo.queueId() >= 0 || result.messageQueue() == null || result.messageQueue().queueId() < 0) {
            return sentTo;
        }
        return new MessageQueue(sentTo.topic(), sentTo.brokerName(), result.messageQueue().queueId());
    }

    /** The topic's queue of this transaction on its broker: the one used before, else one chosen by the id. */
    private MessageQueue queueOnBroker(MessageSender sender, String topic) throws ClientException, InterruptedException {
        MessageQueue mq = queueByTopic.get(topic);
        if (mq == null) {
            List<MessageQueue> here = new ArrayList<>();
            for (MessageQueue q : sender.requirePublishInfo(topic).queues()) {
                if (q.brokerName().equals(brokerName)) {
                    here.add(q);
                }
            }
            if (here.isEmpty()) {
                throw new ClientException(ResponseCode.NO_PERMISSION, "The topic " + topic + " has no writable "
                        + "queue on broker " + brokerName + ", which holds the messages of transaction " + id
                        + "; all messages of a transaction go to one broker. Create the topic on " + brokerName
                        + " or send this message in another transaction.");
            }
            // the queue the broker chooses for this transaction's halves when the client cannot (no route yet)
            mq = here.get(Math.floorMod(id.hashCode(), here.size()));
        }
        return mq;
    }

    /**
     * The broker answers a half send with the queue the message will be committed to; that is the queue it was sent
     * to unless the broker chose.
     */
    private static SendResult inRealQueue(SendResult result, MessageQueue mq) {
        if (mq.queueId() < 0) {
            return result; // the broker chose the queue; only it knows which
        }
        return new SendResult(result.sendStatus(), result.msgId(), result.offsetMsgId(), mq, result.queueOffset(),
                result.transactionId());
    }

    @Override
    public MessageQueue queueOf(String topic) {
        return queueByTopic.get(topic);
    }

    /** Messages of one topic keep to one queue (in sending order); a "broker chooses" queue is not pinned. */
    private void remember(String topic, MessageQueue mq) {
        if (mq.queueId() >= 0) {
            queueByTopic.put(topic, mq);
        }
    }

    /**
     * Streaming: the message becomes the held-back tail and the previous tail goes out without waiting for its
     * answer and without waiting for the disk (at most {@link #window} unanswered). The halves carry their position,
     * because the broker may store them out of order; the commit writes them in this order. A failure is kept and
     * thrown by the next send or the commit at the latest.
     */
    private SendResult stream(MessageSender sender, Message msg, MessageQueue mq) throws ClientException, InterruptedException {
        throwStreamFailure();
        msg.putProperty(MessageProperties.TRANSACTION_SEQUENCE, Integer.toString(sent));
        msg.setWaitStoreMsgOK(false);
        // encoded now, so a bad message fails its own send
        OutgoingMessage checked = OutgoingMessage.of(msg, producer.getMaxMessageSize(), producer.getCompressMsgBodyOverHowmuch());
        if (tail != null) {
            flushTail(sender, false);
        }
        tail = msg;
        tailOut = checked;
        tailQueue = mq;
        brokerName = mq.brokerName();
        remember(checked.topic, mq);
        sent++;
        return new SendResult(SendStatus.SEND_OK, checked.uniqueIds, null, mq, -1, id);
    }

    /**
     * Keeps the message for a batch commit when it fits (see {@link HeldMessages}); checked now as a send would check
     * it. Returns null when it does not fit: the caller spills what is held and streams.
     */
    private SendResult hold(Message msg, MessageQueue mq) throws ClientException {
        msg.setTransactionId(id);
        String properties = OutgoingMessage.checkForBatch(msg, producer.getMaxMessageSize());
        if (!held.offer(msg, mq, properties)) {
            return null;
        }
        brokerName = mq.brokerName();
        remember(msg.getTopic(), mq);
        return new SendResult(SendStatus.SEND_OK, msg.getUniqueKey(), null, mq, -1, id);
    }

    /** Sends the held messages as streamed halves: the transaction can no longer commit as one batch. */
    private void spillHeld() throws ClientException, InterruptedException {
        if (held.isEmpty()) {
            return;
        }
        MessageQueue mq = held.queue();
        MessageSender sender = producer.started();
        for (Message m : held.takeAll()) {
            producer.markHalf(m, id);
            stream(sender, m, mq);
        }
    }

    /**
     * Commits the held messages (nothing else was sent) as one batch: stored atomically, forced under SYNC_FLUSH
     * before the answer. Sent once, never retried: after no answer the batch may or may not be stored, all of it
     * or none.
     *
     * @return false when they cannot go as one batch (nothing was sent): the caller sends them as halves
     */
    private boolean commitHeld() throws ClientException, InterruptedException {
        MessageQueue mq = held.queue();
        OutgoingMessage batch;
        try {
            batch = OutgoingMessage.checkedBatch(held.view(), held.encodedProperties(), producer.getMaxMessageSize());
        } catch (ClientException e) {
            return false; // e.g. larger encoded than estimated: the halves' way has no such limit
        }
        List<Message> messages = held.takeAll();
        batchCommit = true;
        long timeout = producer.getSendMsgTimeout();
        try {
            producer.started().sendToQueueAsync(batch, mq, timeout).get(timeout + 1_000, TimeUnit.MILLISECONDS);
            state = State.COMMITTED;
        } catch (java.util.concurrent.TimeoutException e) {
            state = State.FAILED;
            throw unanswered("within " + timeout + " ms", messages.size(), null);
        } catch (java.util.concurrent.ExecutionException e) {
            state = State.FAILED;
            Throwable cause = e.getCause();
            if (cause instanceof ClientException ce && ce.isNoResponse()) {
                throw unanswered("(" + ce.getMessage() + ")", messages.size(), ce);
            }
            throw new ClientException(ResponseCode.TRANSACTION_FAILED, "Broker " + brokerName + " refused the commit"
                    + " of transaction " + id + ": " + (cause == null ? e : cause).getMessage() + " Nothing of it"
                    + " was stored.", cause == null ? e : cause);
        }
        return true;
    }

    /** A batch commit that got no answer: all of it may be stored, or none. */
    private ClientException unanswered(String how, int messages, Throwable cause) {
        return new ClientException(ClientException.NO_RESPONSE, "Broker " + brokerName + " did not answer the commit"
                + " of transaction " + id + " " + how + ": its " + messages + " message(s) are stored all or not at"
                + " all; look before sending them again.", cause);
    }

    /** Sends the held-back message: streamed, or (forced) waiting for its answer, which follows every other's. */
    private void flushTail(MessageSender sender, boolean durable) throws ClientException, InterruptedException {
        Message msg = tail;
        OutgoingMessage out = tailOut;
        MessageQueue mq = tailQueue;
        tail = null;
        tailOut = null;
        tailQueue = null;
        if (durable) {
            msg.setWaitStoreMsgOK(true);
            out = OutgoingMessage.of(msg, producer.getMaxMessageSize(), producer.getCompressMsgBodyOverHowmuch());
            awaitStreamed();
            sender.sendToQueue(out, mq, producer.getSendMsgTimeout());
            return;
        }
        long timeout = producer.getSendMsgTimeout();
        if (!inFlight.tryAcquire(timeout, TimeUnit.MILLISECONDS)) {
            ClientException e = new ClientException(ClientException.NO_RESPONSE, "Transaction " + id + ": " + window
                    + " messages sent to broker " + brokerName + " got no answer within " + timeout + " ms.");
            streamFailure.compareAndSet(null, e); // this message was never sent: the commit must fail
            throw e;
        }
        sender.sendToQueueAsync(out, mq, timeout).whenComplete((r, e) -> {
            if (e != null) {
                streamFailure.compareAndSet(null, e instanceof java.util.concurrent.CompletionException
                        && e.getCause() != null ? e.getCause() : e);
            }
            inFlight.release();
        });
    }

    /** Waits until every streamed half was answered, then throws the first failure among them. */
    private void awaitStreamed() throws ClientException, InterruptedException {
        long timeout = producer.getSendMsgTimeout();
        if (!inFlight.tryAcquire(window, timeout, TimeUnit.MILLISECONDS)) {
            throw new ClientException(ClientException.NO_RESPONSE, "Transaction " + id + ": messages sent to broker "
                    + brokerName + " got no answer within " + timeout + " ms.");
        }
        inFlight.release(window);
        throwStreamFailure();
    }

    private void throwStreamFailure() throws ClientException {
        Throwable failure = streamFailure.get();
        if (failure == null) {
            return;
        }
        throw new ClientException(ResponseCode.TRANSACTION_FAILED, "A message sent earlier in transaction " + id
                + " was not stored on broker " + brokerName + " (" + failure.getMessage() + "), so the transaction"
                + " cannot commit; roll it back and send its messages again.", failure);
    }

    @Override
    public void flush() throws ClientException, InterruptedException {
        checkOpen("flush");
        try {
            spillHeld();
        } catch (ClientException e) {
            failStreamed(e);
        }
        if (window == 0 || tail == null) {
            // every send waited for its answer (and the disk), or the last flush left nothing behind it
            return;
        }
        try {
            flushTail(producer.started(), true);
        } catch (ClientException e) {
            failStreamed(e);
        }
    }

    @Override
    public void commit() throws ClientException, InterruptedException {
        checkOpen("commit");
        if (!held.isEmpty()) {
            if (commitHeld()) {
                return;
            }
            try {
                spillHeld();
            } catch (ClientException e) {
                failStreamed(e);
            }
        }
        if (tail != null) {
            try {
                // the last half waits for the disk: the log is sequential, so every half before it is forced too,
                // and a commit a check-back completes later finds all of them
                flushTail(producer.started(), true);
            } catch (ClientException e) {
                failStreamed(e);
            }
        }
        end(LocalTransactionState.COMMIT_MESSAGE, State.COMMITTED);
    }

    /**
     * A streamed half failed: nothing of the transaction may become visible. It is rolled back (a rollback the
     * broker does not hear of is settled by check-back) and the commit fails with TRANSACTION_FAILED.
     */
    private void failStreamed(ClientException cause) throws ClientException, InterruptedException {
        try {
            end(LocalTransactionState.ROLLBACK_MESSAGE, State.FAILED);
        } catch (ClientException e) {
            state = State.FAILED;
            cause.addSuppressed(e);
        }
        throw new ClientException(ResponseCode.TRANSACTION_FAILED, cause.getMessage() + " The transaction was rolled"
                + " back.", cause);
    }

    @Override
    public void rollback() throws ClientException, InterruptedException {
        if (window > 0 && state == State.OPEN) {
            held.takeAll(); // never sent
            if (tail != null) {
                tail = null; // never sent
                tailOut = null;
                sent--;
            }
            try {
                awaitStreamed(); // the rollback must not overtake a half still on its way
            } catch (ClientException e) {
                // rolled back anyway
            }
        }
        end(LocalTransactionState.ROLLBACK_MESSAGE, State.ROLLED_BACK);
    }

    private void end(LocalTransactionState outcome, State ended) throws ClientException, InterruptedException {
        checkOpen(ended == State.COMMITTED ? "commit" : "roll back");
        if (sent == 0) {
            state = ended; // nothing was stored anywhere
            return;
        }
        try {
            producer.endTransaction(brokerName, id, outcome, -1, null);
            state = ended;
        } catch (ClientException e) {
            if (e.responseCode() == ResponseCode.TRANSACTION_FAILED
                    || e.responseCode() == ResponseCode.TRANSACTION_STATE_GROUP_WRONG) {
                state = State.FAILED; // the broker decided otherwise; nothing more can be done with it
            }
            throw e;
        }
    }

    private void checkOpen(String action) {
        if (state != State.OPEN) {
            throw new IllegalStateException("Cannot " + action + " transaction " + id + ": it is already "
                    + switch (state) {
                        case COMMITTED -> "committed";
                        case ROLLED_BACK -> "rolled back";
                        default -> "ended by the broker";
                    } + "; begin a new transaction.");
        }
    }

    @Override
    public boolean committedAsOneBatch() {
        return batchCommit;
    }

    @Override
    public String toString() {
        return "LocalTransaction{" + id + ", " + (sent + held.size()) + " message(s)" + (brokerName == null ? "" : " on " + brokerName)
                + ", " + state + "}";
    }
}
