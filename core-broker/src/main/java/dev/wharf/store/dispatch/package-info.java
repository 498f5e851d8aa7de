/**
 * The dispatcher ("reput") that follows the commit log and feeds each committed message to a list of
 * {@link dev.wharf.store.dispatch.CommitLogDispatcher}s (consume queues, index, ...) on its own thread.
 */
package dev.wharf.store.dispatch;
