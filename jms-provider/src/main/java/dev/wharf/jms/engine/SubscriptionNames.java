package dev.wharf.jms.engine;

import dev.wharf.common.message.UniqueIdGenerator;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * The broker consumer groups of JMS subscriptions (the ARCHITECTURE "JMS mapping"): a queue is consumed by the
 * group named like the queue; every topic subscription is a group of its own.
 *
 * <pre>
 *  queue Q                                 Q
 *  non-durable subscriber                  JMS.T.{random}                  (private, deleted when it closes)
 *  durable subscription (clientID, name)   JMS.D.{clientID}.{name}.{hash}.{terms}
 *  shared durable (clientID?, name)        JMS.SD.{clientID or _}.{name}.{hash}.{terms}
 *  shared non-durable (clientID?, name)    JMS.S.{clientID or _}.{name}.{hash}
 * </pre>
 *
 * {name} is the subscription name with every character a group name cannot hold replaced by '_', shortened to 40
 * characters; {hash} is a CRC-32 of the exact client id and name, so that names that differ only in replaced or cut
 * characters still get different groups. Everything before {terms} names the subscription (its "base"). {terms} is
 * a CRC-32 of the topic, selector and noLocal flag: a durable subscription created again with other terms is a new
 * group, and the old one (found on the brokers by the base as a prefix) is deleted — Jakarta Messaging 3.1, 8.3.2:
 * changing them "is equivalent to unsubscribing (deleting) the old one and creating a new one". The dead-letter
 * queue of a subscription is {@code %DLQ%} + its group.
 */
public final class SubscriptionNames {

    private static final int NAME_PART = 40;

    private SubscriptionNames() {
    }

    /** A fresh private group for a non-durable, unshared topic subscriber. */
    public static String privateGroup() {
        return "JMS.T." + UniqueIdGenerator.next();
    }

    public static String durable(String clientId, String name) {
        return "JMS.D." + clientId + "." + part(name) + "." + hash("D", clientId, name);
    }

    public static String sharedDurable(String clientId, String name) {
        return "JMS.SD." + (clientId == null ? "_" : clientId) + "." + part(name) + "." + hash("SD", clientId, name);
    }

    public static String shared(String clientId, String name) {
        return "JMS.S." + (clientId == null ? "_" : clientId) + "." + part(name) + "." + hash("S", clientId, name);
    }

    /** The group of a durable subscription's base for these terms. */
    public static String withTerms(String base, String topic, String selector, boolean noLocal) {
        CRC32 crc = new CRC32();
        crc.update((topic + "\u0000" + (selector == null ? "" : selector) + "\u0000" + noLocal)
                .getBytes(StandardCharsets.UTF_8));
        return base + "." + String.format("%08x", crc.getValue());
    }

    /** The prefix every group of a durable subscription's base starts with, whatever its terms. */
    public static String termsPrefix(String base) {
        return base + ".";
    }

    private static String part(String name) {
        StringBuilder sb = new StringBuilder(Math.min(name.length(), NAME_PART));
        for (int i = 0; i < name.length() && sb.length() < NAME_PART; i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                    || c == '-' || c == '.';
            sb.append(ok ? c : '_');
        }
        return sb.toString();
    }

    private static String hash(String kind, String clientId, String name) {
        CRC32 crc = new CRC32();
        crc.update((kind + "\u0000" + (clientId == null ? "" : clientId) + "\u0000" + name)
                .getBytes(StandardCharsets.UTF_8));
        return String.format("%08x", crc.getValue());
    }
}
