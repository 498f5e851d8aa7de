/**
 * The message index: query the commit-log offsets of messages by key ({@code KEYS} entries and the unique id,
 * scoped by topic) within a time window. Each index file is a fixed-size hash table with chained units on disk;
 * {@link dev.wharf.store.index.IndexService} rolls files, answers queries across them newest first, and
 * truncates and expires them with the commit log.
 */
package dev.wharf.store.index;
