/**
 * The dispatcher ("reput") that follows the commit log and feeds each committed message to a list of
 * {@link dev.wharf.store.dispatch.CommitLogDispatcher}s (consume queues, index, ...) on its own thread. Its
 * confirmed offset never stops inside an atomic batch; readers serve nothing at or past it, so a batch becomes
 * visible whole.
 */
package dev.wharf.store.dispatch;
