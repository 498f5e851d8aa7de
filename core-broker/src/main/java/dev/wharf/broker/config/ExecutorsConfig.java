package dev.wharf.broker.config;

import java.util.List;

/**
 * Sizes of the broker's request executors, one per family of requests (their keys keep RocketMQ's names:
 * {@code <family>ThreadPoolNums} and {@code <family>ThreadPoolQueueCapacity}). The end-transaction executor is sized
 * with the transaction settings.
 */
public class ExecutorsConfig {

    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    private ExecutorSpec send = new ExecutorSpec(Math.min(4, CPUS), 10_000);
    private ExecutorSpec pull = new ExecutorSpec(4 + CPUS * 2, 100_000);
    private ExecutorSpec query = new ExecutorSpec(2 + CPUS, 20_000);
    private ExecutorSpec admin = new ExecutorSpec(4, 10_000);
    private ExecutorSpec clientManage = new ExecutorSpec(8, 100_000);
    private ExecutorSpec pop = new ExecutorSpec(4 + CPUS, 100_000);
    private ExecutorSpec ack = new ExecutorSpec(3, 100_000);
    private boolean sendMessageOnIoThread = true;

    /** Adds a sentence to {@code errors} for each bad size, naming its key. */
    public void validate(List<String> errors) {
        send.validate(errors, "sendMessageThreadPoolNums", "sendThreadPoolQueueCapacity");
        pull.validate(errors, "pullMessageThreadPoolNums", "pullThreadPoolQueueCapacity");
        query.validate(errors, "queryMessageThreadPoolNums", "queryThreadPoolQueueCapacity");
        admin.validate(errors, "adminBrokerThreadPoolNums", "adminBrokerThreadPoolQueueCapacity");
        clientManage.validate(errors, "clientManageThreadPoolNums", "clientManagerThreadPoolQueueCapacity");
        pop.validate(errors, "popMessageThreadPoolNums", "popThreadPoolQueueCapacity");
        ack.validate(errors, "ackMessageThreadPoolNums", "ackThreadPoolQueueCapacity");
    }

    /** Stores sent messages. */
    public ExecutorSpec send() {
        return send;
    }

    public int getSendMessageThreadPoolNums() {
        return send.threads();
    }

    public void setSendMessageThreadPoolNums(int threads) {
        send = send.withThreads(threads);
    }

    public int getSendThreadPoolQueueCapacity() {
        return send.queueCapacity();
    }

    public void setSendThreadPoolQueueCapacity(int queueCapacity) {
        send = send.withQueueCapacity(queueCapacity);
    }

    public boolean isSendMessageOnIoThread() {
        return sendMessageOnIoThread;
    }

    /**
     * true: single sends (not batches) are stored on the connection's I/O thread, which saves two thread hand-offs per
     * send (a store append takes microseconds, and waiting for the disk or the slaves does not hold the thread);
     * false: on the send executor, as batches always are.
     */
    public void setSendMessageOnIoThread(boolean sendMessageOnIoThread) {
        this.sendMessageOnIoThread = sendMessageOnIoThread;
    }

    /** Serves pulls. */
    public ExecutorSpec pull() {
        return pull;
    }

    public int getPullMessageThreadPoolNums() {
        return pull.threads();
    }

    public void setPullMessageThreadPoolNums(int threads) {
        pull = pull.withThreads(threads);
    }

    public int getPullThreadPoolQueueCapacity() {
        return pull.queueCapacity();
    }

    public void setPullThreadPoolQueueCapacity(int queueCapacity) {
        pull = pull.withQueueCapacity(queueCapacity);
    }

    /** Serves queries by key and by id. */
    public ExecutorSpec query() {
        return query;
    }

    public int getQueryMessageThreadPoolNums() {
        return query.threads();
    }

    public void setQueryMessageThreadPoolNums(int threads) {
        query = query.withThreads(threads);
    }

    public int getQueryThreadPoolQueueCapacity() {
        return query.queueCapacity();
    }

    public void setQueryThreadPoolQueueCapacity(int queueCapacity) {
        query = query.withQueueCapacity(queueCapacity);
    }

    /** Serves topic administration and statistics. */
    public ExecutorSpec admin() {
        return admin;
    }

    public int getAdminBrokerThreadPoolNums() {
        return admin.threads();
    }

    public void setAdminBrokerThreadPoolNums(int threads) {
        admin = admin.withThreads(threads);
    }

    public int getAdminBrokerThreadPoolQueueCapacity() {
        return admin.queueCapacity();
    }

    public void setAdminBrokerThreadPoolQueueCapacity(int queueCapacity) {
        admin = admin.withQueueCapacity(queueCapacity);
    }

    /** Serves heartbeats, offsets and queue locks. */
    public ExecutorSpec clientManage() {
        return clientManage;
    }

    public int getClientManageThreadPoolNums() {
        return clientManage.threads();
    }

    public void setClientManageThreadPoolNums(int threads) {
        clientManage = clientManage.withThreads(threads);
    }

    public int getClientManagerThreadPoolQueueCapacity() {
        return clientManage.queueCapacity();
    }

    public void setClientManagerThreadPoolQueueCapacity(int queueCapacity) {
        clientManage = clientManage.withQueueCapacity(queueCapacity);
    }

    /** Serves pops and peeks (acknowledgement-based consumption). */
    public ExecutorSpec pop() {
        return pop;
    }

    public int getPopMessageThreadPoolNums() {
        return pop.threads();
    }

    public void setPopMessageThreadPoolNums(int threads) {
        pop = pop.withThreads(threads);
    }

    public int getPopThreadPoolQueueCapacity() {
        return pop.queueCapacity();
    }

    public void setPopThreadPoolQueueCapacity(int queueCapacity) {
        pop = pop.withQueueCapacity(queueCapacity);
    }

    /** Serves acks and lease changes. */
    public ExecutorSpec ack() {
        return ack;
    }

    public int getAckMessageThreadPoolNums() {
        return ack.threads();
    }

    public void setAckMessageThreadPoolNums(int threads) {
        ack = ack.withThreads(threads);
    }

    public int getAckThreadPoolQueueCapacity() {
        return ack.queueCapacity();
    }

    public void setAckThreadPoolQueueCapacity(int queueCapacity) {
        ack = ack.withQueueCapacity(queueCapacity);
    }
}
