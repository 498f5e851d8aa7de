package dev.wharf.common.message;

/**
 * A message as the broker stored it: the application's message plus the fields the store assigned.
 * Hosts are packed {@link HostAddress} longs. Not thread-safe.
 */
public class MessageExt extends Message {

    private String brokerName;
    private int queueId;
    private int storeSize;
    private long queueOffset;
    private int sysFlag;
    private long bornTimestamp;
    private long bornHost;
    private long storeTimestamp;
    private long storeHost;
    private String msgId;
    private long commitLogOffset;
    private int bodyCRC;
    private int reconsumeTimes;
    private long preparedTransactionOffset;

    public String getBrokerName() {
        return brokerName;
    }

    public void setBrokerName(String brokerName) {
        this.brokerName = brokerName;
    }

    public int getQueueId() {
        return queueId;
    }

    public void setQueueId(int queueId) {
        this.queueId = queueId;
    }

    public int getStoreSize() {
        return storeSize;
    }

    public void setStoreSize(int storeSize) {
        this.storeSize = storeSize;
    }

    public long getQueueOffset() {
        return queueOffset;
    }

    public void setQueueOffset(long queueOffset) {
        this.queueOffset = queueOffset;
    }

    public int getSysFlag() {
        return sysFlag;
    }

    public void setSysFlag(int sysFlag) {
        this.sysFlag = sysFlag;
    }

    public long getBornTimestamp() {
        return bornTimestamp;
    }

    public void setBornTimestamp(long bornTimestamp) {
        this.bornTimestamp = bornTimestamp;
    }

    /** Packed producer address, see {@link HostAddress}. */
    public long getBornHost() {
        return bornHost;
    }

    public void setBornHost(long bornHost) {
        this.bornHost = bornHost;
    }

    public long getStoreTimestamp() {
        return storeTimestamp;
    }

    public void setStoreTimestamp(long storeTimestamp) {
        this.storeTimestamp = storeTimestamp;
    }

    /** Packed broker address, see {@link HostAddress}. */
    public long getStoreHost() {
        return storeHost;
    }

    public void setStoreHost(long storeHost) {
        this.storeHost = storeHost;
    }

    /**
     * The id the application sees: the client's unique id when the producer set one, otherwise the
     * broker's offset message id.
     */
    public String getMsgId() {
        String unique = getUniqueKey();
        return unique != null ? unique : getOffsetMsgId();
    }

    /** The broker's message id (store host + commit-log offset), which locates the record directly. */
    public String getOffsetMsgId() {
        if (msgId == null) {
            msgId = MessageId.create(storeHost, commitLogOffset);
        }
        return msgId;
    }

    public void setOffsetMsgId(String msgId) {
        this.msgId = msgId;
    }

    public long getCommitLogOffset() {
        return commitLogOffset;
    }

    public void setCommitLogOffset(long commitLogOffset) {
        this.commitLogOffset = commitLogOffset;
    }

    public int getBodyCRC() {
        return bodyCRC;
    }

    public void setBodyCRC(int bodyCRC) {
        this.bodyCRC = bodyCRC;
    }

    public int getReconsumeTimes() {
        return reconsumeTimes;
    }

    public void setReconsumeTimes(int reconsumeTimes) {
        this.reconsumeTimes = reconsumeTimes;
    }

    public long getPreparedTransactionOffset() {
        return preparedTransactionOffset;
    }

    public void setPreparedTransactionOffset(long preparedTransactionOffset) {
        this.preparedTransactionOffset = preparedTransactionOffset;
    }

    @Override
    public String toString() {
        return "MessageExt{topic=" + getTopic() + ", queueId=" + queueId + ", queueOffset=" + queueOffset
                + ", commitLogOffset=" + commitLogOffset + ", storeSize=" + storeSize + ", sysFlag=" + sysFlag
                + ", reconsumeTimes=" + reconsumeTimes + ", properties=" + getProperties()
                + ", bodyLength=" + (getBody() == null ? 0 : getBody().length) + "}";
    }
}
