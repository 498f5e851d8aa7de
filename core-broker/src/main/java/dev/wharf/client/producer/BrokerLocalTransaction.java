package dev.wharf.client.producer;

import dev.wharf.client.ClientException;
import dev.wharf.client.route.TopicPublishInfo;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    BrokerLocalTransaction(TransactionProducer producer, String id) {
        this.producer = producer;
        this.id = id;
    }

    @Override
    public String transactionId() {
        return id;
    }

    @Override
    public SendResult send(Message msg) throws ClientException, InterruptedException {
        checkOpen("send a message in");
        producer.markHalf(msg, id);
        MessageSender sender = producer.started();
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
        producer.markHalf(msg, id);
        MessageSender sender = producer.started();
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
                remember(out.topic, mq);
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
        MessageQueue mq = queueByTopic.get(out.topic);
        if (mq == null) {
            List<MessageQueue> here = new ArrayList<>();
            for (MessageQueue q : sender.requirePublishInfo(out.topic).queues()) {
                if (q.brokerName().equals(brokerName)) {
                    here.add(q);
                }
            }
            if (here.isEmpty()) {
                throw new ClientException(ResponseCode.NO_PERMISSION, "The topic " + out.topic + " has no writable "
                        + "queue on broker " + brokerName + ", which holds the messages of transaction " + id
                        + "; all messages of a transaction go to one broker. Create the topic on " + brokerName
                        + " or send this message in another transaction.");
            }
            mq = here.get(Math.floorMod(id.hashCode(), here.size()));
        }
        SendResult result = sender.sendToQueue(out, mq, producer.getSendMsgTimeout());
        remember(out.topic, mq);
        return inRealQueue(result, mq);
    }

    /**
     * The broker answers a half send with the half topic's queue (0); the message will be committed to the queue it
     * was sent to, so that is the queue reported.
     */
    private static SendResult inRealQueue(SendResult result, MessageQueue mq) {
        if (mq.queueId() < 0) {
            return result; // the broker chose the queue; only it knows which
        }
        return new SendResult(result.sendStatus(), result.msgId(), result.offsetMsgId(), mq, result.queueOffset(),
                result.transactionId());
    }

    /** Messages of one topic keep to one queue (in sending order); a "broker chooses" queue is not pinned. */
    private void remember(String topic, MessageQueue mq) {
        if (mq.queueId() >= 0) {
            queueByTopic.put(topic, mq);
        }
    }

    @Override
    public void commit() throws ClientException, InterruptedException {
        end(LocalTransactionState.COMMIT_MESSAGE, State.COMMITTED);
    }

    @Override
    public void rollback() throws ClientException, InterruptedException {
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
    public String toString() {
        return "LocalTransaction{" + id + ", " + sent + " message(s)" + (brokerName == null ? "" : " on " + brokerName)
                + ", " + state + "}";
    }
}
