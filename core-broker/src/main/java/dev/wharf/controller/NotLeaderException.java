package dev.wharf.controller;

/**
 * This controller node cannot serve the request: it is not the Raft leader, or it is a leader that has not applied
 * its first entry of the term yet. {@code leaderId} is the leader this node knows of, or null.
 */
public final class NotLeaderException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String leaderId;

    public NotLeaderException(String leaderId, String message) {
        super(message);
        this.leaderId = leaderId;
    }

    public String leaderId() {
        return leaderId;
    }
}
