package dev.wharf.spring.core;

import dev.wharf.common.TopicValidator;

/**
 * A template destination, {@code topic} or {@code topic:tag} (RocketMQ's form).
 *
 * @param topic the topic
 * @param tag   the tag, or null
 */
record Destination(String topic, String tag) {

    /** @throws IllegalArgumentException naming what is wrong with the destination */
    static Destination parse(String destination) {
        if (destination == null || destination.isBlank()) {
            throw new IllegalArgumentException("The destination is empty; write topic or topic:tag.");
        }
        int colon = destination.indexOf(':');
        String topic = colon < 0 ? destination.strip() : destination.substring(0, colon).strip();
        String tag = colon < 0 ? null : destination.substring(colon + 1).strip();
        String problem = TopicValidator.check(topic);
        if (problem != null) {
            throw new IllegalArgumentException("The destination \"" + destination + "\" names no valid topic: "
                    + problem);
        }
        if (tag != null && (tag.isEmpty() || tag.contains("||") || tag.equals("*"))) {
            throw new IllegalArgumentException("The destination \"" + destination + "\" has the tag \"" + tag
                    + "\"; write one tag after the colon (topic:tag), not empty, \"*\" or \"a || b\".");
        }
        return new Destination(topic, tag);
    }
}
