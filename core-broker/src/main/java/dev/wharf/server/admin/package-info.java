/**
 * {@code wharf admin ...}: administration commands against a NameServer (topics, brokers, sending, consuming,
 * consumer progress, queries, offset resets, dead-letter queues), built on the client's {@code AdminClient},
 * {@code Producer} and {@code PullConsumer}. Output is aligned text, or JSON with {@code --json}.
 */
package dev.wharf.server.admin;
