/**
 * The topics this broker serves: their queue counts and permissions, persisted as {@code config/topics.json},
 * the internal topics created at start, auto-creation on first send, and the version NameServers compare.
 */
package dev.wharf.broker.topic;
