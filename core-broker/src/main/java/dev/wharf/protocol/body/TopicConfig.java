package dev.wharf.protocol.body;

/**
 * A topic as a broker serves it: queue counts, permissions and flags. Immutable; updates replace it.
 *
 * @param perm see {@link TopicPerm}
 */
public record TopicConfig(String topicName, int readQueueNums, int writeQueueNums, int perm, int topicSysFlag,
                          boolean order) {

    public TopicConfig(String topicName, int queueNums) {
        this(topicName, queueNums, queueNums, TopicPerm.READ | TopicPerm.WRITE, 0, false);
    }

    public boolean isReadable() {
        return (perm & TopicPerm.READ) != 0;
    }

    public boolean isWritable() {
        return (perm & TopicPerm.WRITE) != 0;
    }
}
