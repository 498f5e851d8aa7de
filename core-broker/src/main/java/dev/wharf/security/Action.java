package dev.wharf.security;

/** What a request does to a resource (RocketMQ's Pub and Sub, and one right for administration). */
public enum Action {
    /** Send to a topic. */
    PUB,
    /** Read a topic, or consume and commit offsets as a group. */
    SUB,
    /** Create or delete topics, reset offsets, resend dead letters, register brokers, read cluster internals. */
    ADMIN
}
