/**
 * The commit log: all messages of all topics appended in order, in the record layout of
 * {@link dev.wharf.common.message.MessageRecord} (big-endian; files end with a blank record of magic
 * {@code BLANK_MAGIC_CODE} when the next record does not fit). Puts encode outside the put lock
 * ({@link dev.wharf.store.commitlog.RecordEncoder}, one per thread) and hold the lock only to assign offsets and
 * copy; reads never take it. Flushing runs on its own thread: {@link dev.wharf.store.commitlog.FlushCommitLogService}
 * (async) or {@link dev.wharf.store.commitlog.GroupCommitService} (sync, one force per group of waiting puts).
 * {@link dev.wharf.store.commitlog.RecordValidator} and {@link dev.wharf.store.commitlog.RecordResync} tell intact
 * records from damaged bytes; {@link dev.wharf.store.commitlog.QuarantinedRanges} holds the damaged ranges no
 * reader or dispatcher may touch.
 */
package dev.wharf.store.commitlog;
