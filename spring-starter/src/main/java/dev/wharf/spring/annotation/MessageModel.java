package dev.wharf.spring.annotation;

/** Whether the members of a consumer group share a topic's messages or each get all of them. */
public enum MessageModel {
    /** Each message goes to one member of the group (the topic's queues are divided among the members). */
    CLUSTERING,
    /**
     * Every member gets every message; offsets are kept by each member in a local file. Failed messages are retried
     * on the member itself, never through the broker (so there is no dead-letter queue).
     */
    BROADCASTING
}
