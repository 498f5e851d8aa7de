package dev.wharf.client.producer;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.message.UniqueIdGenerator;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.TransactionHeaders.CheckTransactionStateRequest;
import dev.wharf.protocol.header.TransactionHeaders.EndTransactionRequest;
import dev.wharf.remoting.RemotingExecutors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A producer of half-message transactions. {@link #sendMessageInTransaction} stores a half message, runs the
 * local transaction ({@link TransactionListener#executeLocalTransaction}) and reports its outcome with
 * END_TRANSACTION; {@link #beginTransaction()} groups several messages under one transaction id. A transaction whose
 * outcome the broker never learns (the producer died, the report was lost, the state was UNKNOW) is asked about
 * later: the broker sends a check-back to a live producer of the same group, which answers from
 * {@link TransactionListener#checkLocalTransaction} on this producer's check executor.
 *
 * <p>A delayed transactional message is scheduled when its transaction commits (a relative delay counts from the
 * commit). Transactional messages are never sent as a batch. Thread-safe after {@link #start()}
 * ({@link LocalTransaction}s are not).
 */
public class TransactionProducer extends Producer {

    private static final Logger log = LoggerFactory.getLogger(TransactionProducer.class);
    private static final long END_RETRY_PAUSE_MILLIS = 100;

    private volatile TransactionListener transactionListener;
    private int checkThreadPoolNums = 1;
    private int checkRequestHoldMax = 2000;
    private long endTransactionTimeout = 10_000;
    private volatile ExecutorService checkExecutor;

    public TransactionProducer(String producerGroup) {
        super(producerGroup);
    }

    public TransactionProducer(String producerGroup, ClientConfig config) {
        super(producerGroup, config);
    }

    /** Runs local transactions and answers check-backs; set it before sending. */
    public void setTransactionListener(TransactionListener transactionListener) {
        this.transactionListener = transactionListener;
    }

    public TransactionListener getTransactionListener() {
        return transactionListener;
    }

    /** Also starts the check executor and routes the broker's check-backs for this group to the listener. */
    @Override
    public synchronized void start() throws ClientException {
        super.start();
        checkExecutor = RemotingExecutors.bounded("wharf-transaction-check-" + getProducerGroup(), checkThreadPoolNums,
                checkRequestHoldMax);
        ClientInstance instance = clientInstance();
        instance.registerTransactionCheckHandler(getProducerGroup(), this::onCheck);
        try {
            // join the group on every broker of the cluster now, not only on those this producer sends to: a
            // check-back about a dead member's transaction may come to this one before it sent anything
            instance.clusterMasters();
            instance.sendHeartbeatToAllBrokers();
        } catch (ClientException e) {
            log.warn("Producer group {} could not read the cluster's brokers; check-backs reach this producer once"
                    + " it sends to a broker: {}", getProducerGroup(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void shutdown() {
        super.shutdown();
        ExecutorService executor = checkExecutor;
        if (executor != null) {
            executor.shutdownNow();
            checkExecutor = null;
        }
    }

    /**
     * Stores {@code msg} as a half message, runs {@link TransactionListener#executeLocalTransaction}(msg, arg) and
     * reports the outcome. A local transaction that throws counts as UNKNOW (the broker asks back later). A report
     * that cannot be delivered is logged, not thrown: the local transaction already ran, and the check-back
     * settles the message.
     *
     * @throws ClientException when the half message could not be stored (the local transaction did not run)
     */
    public TransactionSendResult sendMessageInTransaction(Message msg, Object arg)
            throws ClientException, InterruptedException {
        TransactionListener listener = requireListener();
        String transactionId = UniqueIdGenerator.next();
        markHalf(msg, transactionId);
        SendResult sent = send(msg);
        LocalTransactionState state;
        try {
            state = listener.executeLocalTransaction(msg, arg);
        } catch (RuntimeException e) {
            log.warn("The local transaction of {} failed; its outcome is left to the broker's check-back: {}",
                    transactionId, e.toString());
            state = null;
        }
        if (state == null) {
            state = LocalTransactionState.UNKNOW;
        }
        if (state != LocalTransactionState.UNKNOW) {
            long halfOffset = MessageId.isValid(sent.offsetMsgId()) ? MessageId.commitLogOffset(sent.offsetMsgId()) : -1;
            try {
                endTransaction(sent.messageQueue().brokerName(), transactionId, state, halfOffset, sent.msgId());
            } catch (ClientException e) {
                log.warn("Could not report {} of transaction {} to broker {}; the broker will ask back: {}", state,
                        transactionId, sent.messageQueue().brokerName(), e.getMessage());
            }
        }
        return new TransactionSendResult(sent, state);
    }

    /**
     * Starts a transaction of several messages (see {@link LocalTransaction}). Nothing is sent until its first
     * {@link LocalTransaction#send}.
     */
    public LocalTransaction beginTransaction() {
        requireListener();
        started();
        return new BrokerLocalTransaction(this, UniqueIdGenerator.next());
    }

    /**
     * Like {@link #beginTransaction()}, streaming: a send to a given queue returns without waiting for the broker
     * (at most {@code window} answers outstanding) and its half message is not forced to disk on its own; the
     * commit waits for every answer and stores the last half forced (which forces all before it, as the commit log
     * is sequential) before it ends the transaction. A half that failed fails the next send or the commit, which
     * then rolls the transaction back (TRANSACTION_FAILED). The halves must be durable before the commit only: use
     * this when nothing outside the producer learns of the transaction before its commit (a local transaction
     * that records the id and may have a check-back commit it needs {@link #beginTransaction()}).
     *
     * @param window answers outstanding at most; 0 is {@link #beginTransaction()}
     */
    public LocalTransaction beginTransaction(int window) {
        return beginTransaction(window, 0);
    }

    /**
     * Like {@link #beginTransaction(int)}, holding messages on the client: while the transaction's messages go to one
     * queue, are not delayed and take at most {@code holdBytes} together, they are not sent before the commit, which
     * then sends them as one batch: stored atomically as ordinary messages, in one request and (SYNC_FLUSH) one
     * force, with no half messages. The first message that does not fit sends the held ones as streamed halves and
     * the transaction goes on as {@link #beginTransaction(int)}; so does a {@link LocalTransaction#flush()}. A commit
     * of held messages is never retried: if it gets no answer, they are stored all or not at all.
     *
     * @param window    answers outstanding at most; 0 is {@link #beginTransaction()} (nothing is held)
     * @param holdBytes bytes (bodies and properties) held at most; 0 holds nothing
     */
    public LocalTransaction beginTransaction(int window, int holdBytes) {
        if (window < 0) {
            throw new IllegalArgumentException("The window of a streamed transaction must be 0 or more, got " + window);
        }
        if (holdBytes < 0) {
            throw new IllegalArgumentException("The bytes a transaction holds must be 0 or more, got " + holdBytes);
        }
        requireListener();
        started();
        return new BrokerLocalTransaction(this, UniqueIdGenerator.next(), window, holdBytes);
    }

    /** Marks a message as a half message of {@code transactionId}. */
    void markHalf(Message msg, String transactionId) throws ClientException {
        if (msg == null) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The message is null; build a Message with a "
                    + "topic and a body.");
        }
        msg.putProperty(MessageProperties.TRANSACTION_PREPARED, "true");
        msg.putProperty(MessageProperties.PRODUCER_GROUP, getProducerGroup());
        msg.setTransactionId(transactionId);
    }

    /**
     * Reports a transaction's outcome with END_TRANSACTION and waits for the broker; retried while the broker does
     * not answer, is busy or unreachable, within {@code endTransactionTimeout}.
     *
     * @throws ClientException the broker's refusal (e.g. TRANSACTION_FAILED), or the last failure when time ran out
     */
    void endTransaction(String brokerName, String transactionId, LocalTransactionState state, long halfOffset,
                        String msgId) throws ClientException, InterruptedException {
        ClientInstance instance = clientInstance();
        EndTransactionRequest header = new EndTransactionRequest(getProducerGroup(), transactionId, type(state),
                halfOffset, false, msgId);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(endTransactionTimeout);
        ClientException last = null;
        int attempts = 0;
        while (attempts == 0 || System.nanoTime() - deadline < 0) {
            attempts++;
            String address = instance.masterAddress(brokerName);
            long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            try {
                if (address == null) {
                    throw new ClientException("The address of broker " + brokerName + " is not known (yet); its "
                            + "route comes from the NameServer.");
                }
                instance.messageApi().endTransactionSync(address, header, Math.min(left, getSendMsgTimeout()));
                return;
            } catch (ClientException e) {
                if (!retriableEnd(e)) {
                    throw e;
                }
                last = e;
            }
            long pause = Math.min(END_RETRY_PAUSE_MILLIS * attempts, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            if (pause > 0) {
                TimeUnit.MILLISECONDS.sleep(pause); // back off: the broker is restarting or overloaded
            }
        }
        throw new ClientException(last.responseCode(), "Could not report " + state + " of transaction "
                + transactionId + " to broker " + brokerName + " within " + endTransactionTimeout + " ms ("
                + attempts + " attempts): " + last.getMessage() + " The broker will ask a producer of group "
                + getProducerGroup() + " about it.", last);
    }

    private static boolean retriableEnd(ClientException e) {
        return switch (e.responseCode()) {
            case ClientException.NO_RESPONSE, ResponseCode.SYSTEM_BUSY, ResponseCode.SYSTEM_ERROR,
                 ResponseCode.SERVICE_NOT_AVAILABLE -> true;
            default -> false;
        };
    }

    static int type(LocalTransactionState state) {
        return switch (state) {
            case COMMIT_MESSAGE -> MessageSysFlag.TRANSACTION_COMMIT_TYPE;
            case ROLLBACK_MESSAGE -> MessageSysFlag.TRANSACTION_ROLLBACK_TYPE;
            case UNKNOW -> MessageSysFlag.TRANSACTION_NOT_TYPE;
        };
    }

    // ------------------------------------------------------------------ check-back

    private void onCheck(String brokerAddr, MessageExt half, CheckTransactionStateRequest request) {
        ExecutorService executor = checkExecutor;
        if (executor == null) {
            return;
        }
        try {
            executor.execute(() -> answerCheck(brokerAddr, half, request));
        } catch (RejectedExecutionException e) {
            log.warn("Too many check-backs waiting for producer group {} (checkRequestHoldMax {}); transaction {} is"
                    + " asked again later", getProducerGroup(), checkRequestHoldMax, request.transactionId());
        }
    }

    private void answerCheck(String brokerAddr, MessageExt half, CheckTransactionStateRequest request) {
        TransactionListener listener = transactionListener;
        if (listener == null) {
            log.warn("Producer group {} got a check-back for transaction {} but has no TransactionListener",
                    getProducerGroup(), request.transactionId());
            return;
        }
        MessageExt msg = asApplicationMessage(half, request);
        LocalTransactionState state;
        try {
            state = listener.checkLocalTransaction(msg);
        } catch (RuntimeException e) {
            log.warn("checkLocalTransaction failed for transaction {}; the broker asks again: {}",
                    request.transactionId(), e.toString());
            return;
        }
        if (state == null || state == LocalTransactionState.UNKNOW) {
            return; // nothing to report; the broker asks again at its next round
        }
        EndTransactionRequest header = new EndTransactionRequest(getProducerGroup(), request.transactionId(),
                type(state), request.commitLogOffset(), true, request.msgId());
        try {
            ClientInstance instance = clientInstance();
            instance.messageApi().endTransaction(brokerAddr, header, null, instance.apiTimeoutMillis());
        } catch (ClientException | IllegalStateException e) {
            log.warn("Could not answer the check-back of transaction {} to {}: {}", request.transactionId(),
                    brokerAddr, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The half message as the application sent it: its real topic and queue, with the transaction id. */
    private static MessageExt asApplicationMessage(MessageExt half, CheckTransactionStateRequest request) {
        MessageExt msg = half != null ? half : new MessageExt();
        String realTopic = msg.getProperty(MessageProperties.REAL_TOPIC);
        if (realTopic != null) {
            msg.setTopic(realTopic);
        }
        String realQueue = msg.getProperty(MessageProperties.REAL_QUEUE_ID);
        if (realQueue != null) {
            try {
                msg.setQueueId(Integer.parseInt(realQueue));
            } catch (NumberFormatException e) {
                // keep the stored queue id
            }
        }
        if (msg.getTransactionId() == null) {
            msg.setTransactionId(request.transactionId());
        }
        return msg;
    }

    private TransactionListener requireListener() {
        TransactionListener listener = transactionListener;
        if (listener == null) {
            throw new IllegalStateException("TransactionProducer " + getProducerGroup() + " has no TransactionListener;"
                    + " call setTransactionListener before sending: it runs local transactions and answers the"
                    + " broker's check-backs.");
        }
        return listener;
    }

    // ------------------------------------------------------------------ options

    /** Threads answering check-backs (default 1); set before start. */
    public int getCheckThreadPoolNums() {
        return checkThreadPoolNums;
    }

    public void setCheckThreadPoolNums(int checkThreadPoolNums) {
        if (checkThreadPoolNums < 1) {
            throw new IllegalArgumentException("checkThreadPoolNums must be at least 1, got " + checkThreadPoolNums);
        }
        this.checkThreadPoolNums = checkThreadPoolNums;
    }

    /** Check-backs waiting for a thread at most (default 2000); more are dropped (the broker asks again). */
    public int getCheckRequestHoldMax() {
        return checkRequestHoldMax;
    }

    public void setCheckRequestHoldMax(int checkRequestHoldMax) {
        if (checkRequestHoldMax < 0) {
            throw new IllegalArgumentException("checkRequestHoldMax must be at least 0, got " + checkRequestHoldMax);
        }
        this.checkRequestHoldMax = checkRequestHoldMax;
    }

    /** How long commit/rollback keep retrying END_TRANSACTION, in ms (default 10000). */
    public long getEndTransactionTimeout() {
        return endTransactionTimeout;
    }

    public void setEndTransactionTimeout(long endTransactionTimeout) {
        if (endTransactionTimeout < 1) {
            throw new IllegalArgumentException("endTransactionTimeout must be at least 1 ms, got " + endTransactionTimeout);
        }
        this.endTransactionTimeout = endTransactionTimeout;
    }
}
