package dev.wharf.store;

import dev.wharf.store.cleanup.DeleteWhen;
import dev.wharf.store.commitlog.CommitLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of the message store. Property names are RocketMQ's keys, so a broker config file binds to them
 * by name. Call {@link #validate()} before use (the store's constructor does). Not thread-safe: set everything
 * before the store is created; the store reads the values once.
 */
public final class MessageStoreConfig {

    private static final int KIB = 1024;
    private static final int MIB = 1024 * KIB;

    /** Root folder of the store (commitlog/, consumequeue/, index/, config/, checkpoint, abort, lock). */
    private String storePathRootDir = System.getProperty("user.home") + "/store";
    /** Size of one commit-log file in bytes. */
    private int mappedFileSizeCommitLog = 1024 * MIB;
    /** Size of one consume-queue file in bytes (a multiple of the 20-byte unit). */
    private int mappedFileSizeConsumeQueue = 300_000 * 20;
    /** Whether puts wait for the disk (SYNC_FLUSH) or only for the page cache (ASYNC_FLUSH). */
    private FlushDiskType flushDiskType = FlushDiskType.ASYNC_FLUSH;
    /** Async flush: period of the flush thread in milliseconds. */
    private int flushIntervalCommitLog = 500;
    /** Async flush: least dirty pages (4 KiB) before a periodic force. */
    private int flushCommitLogLeastPages = 4;
    /** Async flush: period of a complete force regardless of dirty pages, in milliseconds. */
    private int flushCommitLogThoroughInterval = 10_000;
    /** Period of the consume-queue and index flush in milliseconds. */
    private int flushIntervalConsumeQueue = 1000;
    /** Least dirty pages before a periodic consume-queue force. */
    private int flushConsumeQueueLeastPages = 2;
    /** Period of a complete consume-queue force (which also advances the checkpoint), in milliseconds. */
    private int flushConsumeQueueThoroughInterval = 60_000;
    /** Sync flush: how long a put waits for the disk before it reports FLUSH_DISK_TIMEOUT, in milliseconds. */
    private int syncFlushTimeout = 5000;
    /** Largest stored record (headers, body, topic, properties) in bytes. */
    private int maxMessageSize = 4 * MIB;
    /** Hours a commit-log file is kept after its last write. */
    private int fileReservedTime = 72;
    /** Hour(s) of the day when expired files are deleted: "04" or "04;16". */
    private String deleteWhen = "04";
    /** Disk use (percent) above which old commit-log files are deleted at once. */
    private int diskMaxUsedSpaceRatio = 85;
    /** Period of the clean-up check in milliseconds. */
    private int cleanResourceInterval = 10_000;
    /** Pause between two commit-log file deletions in milliseconds. */
    private int deleteCommitLogFilesInterval = 100;
    /** How long a file still read by someone is spared before it is unmapped anyway, in milliseconds. */
    private int destroyMapedFileIntervalForcibly = 120_000;
    /** Hash slots per index file. */
    private int maxHashSlotNum = 5_000_000;
    /** Entries per index file. */
    private int maxIndexNum = 20_000_000;
    /** Whether messages are indexed by key and unique id. */
    private boolean messageIndexEnable = true;
    /** Whether recovery checks body CRCs. */
    private boolean checkCRCOnRecover = true;
    /**
     * Whether the body CRC of every record is verified before it leaves the store for a consumer (a damaged one
     * is skipped and quarantined, never sent). Structure and the topic/queue/offset of the consume-queue unit are
     * always verified; clients verify the body CRC of what they receive either way. Off by default: it costs
     * 13 to 25 % of the store's read throughput with one copy of the bytes (ReadCheckBenchmark), well above the
     * 5 % a default may cost.
     */
    private boolean checkCRCOnRead = false;
    /** Most bytes one read returns. */
    private int maxTransferBytesOnMessageInMemory = 256 * KIB;
    /** Most messages one read returns. */
    private int maxTransferCountOnMessageInMemory = 32;
    /** Whether new commit-log files are pre-touched page by page. */
    private boolean warmMapedFileEnable = false;
    /** The broker address ("ip:port") stored in records and message ids. */
    private String storeHost = "127.0.0.1:10911";
    /**
     * Disk use (percent) above which new messages are refused until space returns (clean-up already deletes old
     * files above {@code diskMaxUsedSpaceRatio}, so this is the last line before the disk is really full).
     */
    private int diskSpaceWarningLevelRatio = 90;
    /**
     * Bytes of disk a commit-log file is given at a time ahead of the writer (zeros written through a channel), so
     * a write through the mapping never meets a full disk; a put that needs a step the disk cannot give is refused
     * as "disk full". The file size or more reserves whole files at creation. 0 (the default) chooses by the flush
     * mode: 1 MiB under SYNC_FLUSH, where each step is written a page at a time and forced before records follow
     * it (so a record's force writes its page and no file-system metadata; the writer waits for that force, and
     * with 64 KiB steps a transaction of 100 KiB waited for one or two), and 4 MiB under ASYNC_FLUSH.
     */
    private int preallocateStepCommitLog = 0;

    /**
     * Checks every setting.
     *
     * @throws IllegalArgumentException listing each bad setting with what is allowed
     */
    public void validate() {
        List<String> errors = new ArrayList<>();
        if (storePathRootDir == null || storePathRootDir.isBlank()) {
            errors.add("storePathRootDir is empty; give the folder the store lives in.");
        }
        if (mappedFileSizeCommitLog < 4 * KIB) {
            errors.add("mappedFileSizeCommitLog is " + mappedFileSizeCommitLog + "; use at least 4096 bytes (default 1 GiB).");
        }
        if (mappedFileSizeConsumeQueue < 20 || mappedFileSizeConsumeQueue % 20 != 0) {
            errors.add("mappedFileSizeConsumeQueue is " + mappedFileSizeConsumeQueue
                    + "; use a positive multiple of the 20-byte unit (default 300000*20).");
        }
        if (flushDiskType == null) {
            errors.add("flushDiskType is not set; use ASYNC_FLUSH or SYNC_FLUSH.");
        }
        positive(errors, "flushIntervalCommitLog", flushIntervalCommitLog);
        notNegative(errors, "flushCommitLogLeastPages", flushCommitLogLeastPages);
        positive(errors, "flushCommitLogThoroughInterval", flushCommitLogThoroughInterval);
        positive(errors, "flushIntervalConsumeQueue", flushIntervalConsumeQueue);
        notNegative(errors, "flushConsumeQueueLeastPages", flushConsumeQueueLeastPages);
        positive(errors, "flushConsumeQueueThoroughInterval", flushConsumeQueueThoroughInterval);
        positive(errors, "syncFlushTimeout", syncFlushTimeout);
        positive(errors, "maxMessageSize", maxMessageSize);
        if (maxMessageSize > 0 && mappedFileSizeCommitLog >= 4 * KIB && maxMessageSize > mappedFileSizeCommitLog - 8) {
            errors.add("maxMessageSize (" + maxMessageSize + ") must be smaller than mappedFileSizeCommitLog ("
                    + mappedFileSizeCommitLog + ") minus 8, since a record never spans two files.");
        }
        notNegative(errors, "fileReservedTime", fileReservedTime);
        String deleteWhenError = DeleteWhen.check(deleteWhen);
        if (deleteWhenError != null) {
            errors.add(deleteWhenError);
        }
        if (diskMaxUsedSpaceRatio < 10 || diskMaxUsedSpaceRatio > 95) {
            errors.add("diskMaxUsedSpaceRatio is " + diskMaxUsedSpaceRatio + "; use a percentage from 10 to 95 (default 85).");
        }
        if (diskSpaceWarningLevelRatio < diskMaxUsedSpaceRatio || diskSpaceWarningLevelRatio > 99) {
            errors.add("diskSpaceWarningLevelRatio is " + diskSpaceWarningLevelRatio + "; use a percentage from"
                    + " diskMaxUsedSpaceRatio (" + diskMaxUsedSpaceRatio + ") to 99 (default 90), since the store"
                    + " must clean up before it refuses writes.");
        }
        if (preallocateStepCommitLog != 0 && preallocateStepCommitLog < 4 * KIB) {
            errors.add("preallocateStepCommitLog is " + preallocateStepCommitLog + "; use at least 4096 bytes, or 0"
                    + " for the default (64 KiB under SYNC_FLUSH, 4 MiB under ASYNC_FLUSH).");
        }
        positive(errors, "cleanResourceInterval", cleanResourceInterval);
        notNegative(errors, "deleteCommitLogFilesInterval", deleteCommitLogFilesInterval);
        notNegative(errors, "destroyMapedFileIntervalForcibly", destroyMapedFileIntervalForcibly);
        positive(errors, "maxHashSlotNum", maxHashSlotNum);
        positive(errors, "maxIndexNum", maxIndexNum);
        if (maxHashSlotNum > 0 && maxIndexNum > 0 && 40L + 4L * maxHashSlotNum + 20L * maxIndexNum > Integer.MAX_VALUE) {
            errors.add("An index file of maxHashSlotNum " + maxHashSlotNum + " and maxIndexNum " + maxIndexNum
                    + " would exceed 2 GiB; lower them.");
        }
        positive(errors, "maxTransferBytesOnMessageInMemory", maxTransferBytesOnMessageInMemory);
        positive(errors, "maxTransferCountOnMessageInMemory", maxTransferCountOnMessageInMemory);
        validateQueueScale(errors);
        notNegative(errors, "groupCommitGatherMicros", groupCommitGatherMicros);
        notNegative(errors, "groupCommitInlineForceMicros", groupCommitInlineForceMicros);
        String hostError = checkStoreHost(storeHost);
        if (hostError != null) {
            errors.add(hostError);
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("Invalid store configuration: " + String.join(" ", errors));
        }
    }

    private static void positive(List<String> errors, String name, long value) {
        if (value <= 0) {
            errors.add(name + " is " + value + "; it must be greater than 0.");
        }
    }

    private static void notNegative(List<String> errors, String name, long value) {
        if (value < 0) {
            errors.add(name + " is " + value + "; it must not be negative.");
        }
    }

    private static String checkStoreHost(String host) {
        if (host == null || host.isBlank()) {
            return "storeHost is empty; give the broker address as ip:port, e.g. 192.168.0.10:10911.";
        }
        int colon = host.lastIndexOf(':');
        if (colon <= 0) {
            return "storeHost \"" + host + "\" has no port; give it as ip:port, e.g. 192.168.0.10:10911.";
        }
        try {
            int port = Integer.parseInt(host.substring(colon + 1));
            if (port < 0 || port > 65535) {
                return "storeHost \"" + host + "\" has port " + port + "; ports run from 0 to 65535.";
            }
        } catch (NumberFormatException e) {
            return "storeHost \"" + host + "\" has a port that is not a number; give it as ip:port.";
        }
        return null;
    }

    /** The root folder as a path. */
    public Path rootPath() {
        return Path.of(storePathRootDir);
    }

    /** The {@code config/} folder of the store, where the broker keeps topics, offsets and delay offsets. */
    public Path configDir() {
        return rootPath().resolve("config");
    }

    public String getStorePathRootDir() {
        return storePathRootDir;
    }

    public void setStorePathRootDir(String storePathRootDir) {
        this.storePathRootDir = storePathRootDir;
    }

    public int getMappedFileSizeCommitLog() {
        return mappedFileSizeCommitLog;
    }

    public void setMappedFileSizeCommitLog(int mappedFileSizeCommitLog) {
        this.mappedFileSizeCommitLog = mappedFileSizeCommitLog;
    }

    public int getMappedFileSizeConsumeQueue() {
        return mappedFileSizeConsumeQueue;
    }

    public void setMappedFileSizeConsumeQueue(int mappedFileSizeConsumeQueue) {
        this.mappedFileSizeConsumeQueue = mappedFileSizeConsumeQueue;
    }

    public FlushDiskType getFlushDiskType() {
        return flushDiskType;
    }

    public void setFlushDiskType(FlushDiskType flushDiskType) {
        this.flushDiskType = flushDiskType;
    }

    public int getFlushIntervalCommitLog() {
        return flushIntervalCommitLog;
    }

    public void setFlushIntervalCommitLog(int flushIntervalCommitLog) {
        this.flushIntervalCommitLog = flushIntervalCommitLog;
    }

    public int getFlushCommitLogLeastPages() {
        return flushCommitLogLeastPages;
    }

    public void setFlushCommitLogLeastPages(int flushCommitLogLeastPages) {
        this.flushCommitLogLeastPages = flushCommitLogLeastPages;
    }

    public int getFlushCommitLogThoroughInterval() {
        return flushCommitLogThoroughInterval;
    }

    public void setFlushCommitLogThoroughInterval(int flushCommitLogThoroughInterval) {
        this.flushCommitLogThoroughInterval = flushCommitLogThoroughInterval;
    }

    public int getFlushIntervalConsumeQueue() {
        return flushIntervalConsumeQueue;
    }

    public void setFlushIntervalConsumeQueue(int flushIntervalConsumeQueue) {
        this.flushIntervalConsumeQueue = flushIntervalConsumeQueue;
    }

    public int getFlushConsumeQueueLeastPages() {
        return flushConsumeQueueLeastPages;
    }

    public void setFlushConsumeQueueLeastPages(int flushConsumeQueueLeastPages) {
        this.flushConsumeQueueLeastPages = flushConsumeQueueLeastPages;
    }

    public int getFlushConsumeQueueThoroughInterval() {
        return flushConsumeQueueThoroughInterval;
    }

    public void setFlushConsumeQueueThoroughInterval(int flushConsumeQueueThoroughInterval) {
        this.flushConsumeQueueThoroughInterval = flushConsumeQueueThoroughInterval;
    }

    public int getSyncFlushTimeout() {
        return syncFlushTimeout;
    }

    public void setSyncFlushTimeout(int syncFlushTimeout) {
        this.syncFlushTimeout = syncFlushTimeout;
    }

    public int getMaxMessageSize() {
        return maxMessageSize;
    }

    public void setMaxMessageSize(int maxMessageSize) {
        this.maxMessageSize = maxMessageSize;
    }

    /**
     * Most bytes one batch ({@code putMessages}) may take stored, derived from the file and message sizes (not a
     * setting): an atomic batch must fit in one commit-log file.
     */
    public int maxBatchBytes() {
        return CommitLog.maxBatchSize(mappedFileSizeCommitLog, maxMessageSize);
    }

    public int getFileReservedTime() {
        return fileReservedTime;
    }

    public void setFileReservedTime(int fileReservedTime) {
        this.fileReservedTime = fileReservedTime;
    }

    public String getDeleteWhen() {
        return deleteWhen;
    }

    public void setDeleteWhen(String deleteWhen) {
        this.deleteWhen = deleteWhen;
    }

    public int getDiskMaxUsedSpaceRatio() {
        return diskMaxUsedSpaceRatio;
    }

    public void setDiskMaxUsedSpaceRatio(int diskMaxUsedSpaceRatio) {
        this.diskMaxUsedSpaceRatio = diskMaxUsedSpaceRatio;
    }

    public int getCleanResourceInterval() {
        return cleanResourceInterval;
    }

    public void setCleanResourceInterval(int cleanResourceInterval) {
        this.cleanResourceInterval = cleanResourceInterval;
    }

    public int getDeleteCommitLogFilesInterval() {
        return deleteCommitLogFilesInterval;
    }

    public void setDeleteCommitLogFilesInterval(int deleteCommitLogFilesInterval) {
        this.deleteCommitLogFilesInterval = deleteCommitLogFilesInterval;
    }

    public int getDestroyMapedFileIntervalForcibly() {
        return destroyMapedFileIntervalForcibly;
    }

    public void setDestroyMapedFileIntervalForcibly(int destroyMapedFileIntervalForcibly) {
        this.destroyMapedFileIntervalForcibly = destroyMapedFileIntervalForcibly;
    }

    public int getMaxHashSlotNum() {
        return maxHashSlotNum;
    }

    public void setMaxHashSlotNum(int maxHashSlotNum) {
        this.maxHashSlotNum = maxHashSlotNum;
    }

    public int getMaxIndexNum() {
        return maxIndexNum;
    }

    public void setMaxIndexNum(int maxIndexNum) {
        this.maxIndexNum = maxIndexNum;
    }

    public boolean isMessageIndexEnable() {
        return messageIndexEnable;
    }

    public void setMessageIndexEnable(boolean messageIndexEnable) {
        this.messageIndexEnable = messageIndexEnable;
    }

    public boolean isCheckCRCOnRecover() {
        return checkCRCOnRecover;
    }

    public void setCheckCRCOnRecover(boolean checkCRCOnRecover) {
        this.checkCRCOnRecover = checkCRCOnRecover;
    }

    public int getMaxTransferBytesOnMessageInMemory() {
        return maxTransferBytesOnMessageInMemory;
    }

    public void setMaxTransferBytesOnMessageInMemory(int maxTransferBytesOnMessageInMemory) {
        this.maxTransferBytesOnMessageInMemory = maxTransferBytesOnMessageInMemory;
    }

    public int getMaxTransferCountOnMessageInMemory() {
        return maxTransferCountOnMessageInMemory;
    }

    public void setMaxTransferCountOnMessageInMemory(int maxTransferCountOnMessageInMemory) {
        this.maxTransferCountOnMessageInMemory = maxTransferCountOnMessageInMemory;
    }

    public boolean isWarmMapedFileEnable() {
        return warmMapedFileEnable;
    }

    public void setWarmMapedFileEnable(boolean warmMapedFileEnable) {
        this.warmMapedFileEnable = warmMapedFileEnable;
    }

    public String getStoreHost() {
        return storeHost;
    }

    public void setStoreHost(String storeHost) {
        this.storeHost = storeHost;
    }

    public int getDiskSpaceWarningLevelRatio() {
        return diskSpaceWarningLevelRatio;
    }

    public void setDiskSpaceWarningLevelRatio(int diskSpaceWarningLevelRatio) {
        this.diskSpaceWarningLevelRatio = diskSpaceWarningLevelRatio;
    }

    public int getPreallocateStepCommitLog() {
        return preallocateStepCommitLog;
    }

    /** The reserve step in use: the one set, or by the flush mode when 0 (see {@link #setPreallocateStepCommitLog}). */
    public int preallocateStepCommitLog() {
        if (preallocateStepCommitLog != 0) {
            return preallocateStepCommitLog;
        }
        return flushDiskType == FlushDiskType.SYNC_FLUSH ? MIB : 4 * MIB;
    }

    public void setPreallocateStepCommitLog(int preallocateStepCommitLog) {
        this.preallocateStepCommitLog = preallocateStepCommitLog;
    }

    public boolean isCheckCRCOnRead() {
        return checkCRCOnRead;
    }

    public void setCheckCRCOnRead(boolean checkCRCOnRead) {
        this.checkCRCOnRead = checkCRCOnRead;
    }

    // ---- many queues: how many consume queues stay mapped, and how often their manifest is written ----

    /** Consume queues whose files may be mapped at once; the least recently used are unmapped beyond it. */
    private int maxMappedConsumeQueues = 8_192;
    /** A consume queue unused this long is unmapped (it maps again on its next use). */
    private long consumeQueueIdleUnmapMillis = 300_000;
    /** How often the queue manifest (queues and their ends, checked at start) is written while running. */
    private long queueManifestInterval = 60_000;

    private void validateQueueScale(List<String> errors) {
        positive(errors, "maxMappedConsumeQueues", maxMappedConsumeQueues);
        positive(errors, "consumeQueueIdleUnmapMillis", consumeQueueIdleUnmapMillis);
        positive(errors, "queueManifestInterval", queueManifestInterval);
    }

    public int getMaxMappedConsumeQueues() {
        return maxMappedConsumeQueues;
    }

    public void setMaxMappedConsumeQueues(int maxMappedConsumeQueues) {
        this.maxMappedConsumeQueues = maxMappedConsumeQueues;
    }

    public long getConsumeQueueIdleUnmapMillis() {
        return consumeQueueIdleUnmapMillis;
    }

    public void setConsumeQueueIdleUnmapMillis(long consumeQueueIdleUnmapMillis) {
        this.consumeQueueIdleUnmapMillis = consumeQueueIdleUnmapMillis;
    }

    public long getQueueManifestInterval() {
        return queueManifestInterval;
    }

    public void setQueueManifestInterval(long queueManifestInterval) {
        this.queueManifestInterval = queueManifestInterval;
    }

    // ---- SYNC_FLUSH group commit: gathering the writers a force released ----

    /**
     * Under SYNC_FLUSH, how long (microseconds, after a force ended) the next force may wait for the writers the
     * last one released, when several are in flight, so that one force carries them all (0: never wait).
     */
    private long groupCommitGatherMicros = 500;

    public long getGroupCommitGatherMicros() {
        return groupCommitGatherMicros;
    }

    public void setGroupCommitGatherMicros(long groupCommitGatherMicros) {
        this.groupCommitGatherMicros = groupCommitGatherMicros;
    }

    /**
     * Under SYNC_FLUSH, the sends a connection's I/O thread reads in one turn are forced once by that thread at the
     * end of the turn, instead of by the group-commit thread, when no other force is running and the last force
     * took at most this long (microseconds; 0: always the group-commit thread). It saves two thread wake-ups per
     * send; after a force slower than this, forces go back to the group-commit thread, and so they do while
     * writers the last force released are still due within {@link #setGroupCommitGatherMicros gather} (that
     * thread's leader waits for them; the I/O thread cannot, since it reads their sends itself).
     */
    private long groupCommitInlineForceMicros = 1000;

    public long getGroupCommitInlineForceMicros() {
        return groupCommitInlineForceMicros;
    }

    public void setGroupCommitInlineForceMicros(long groupCommitInlineForceMicros) {
        this.groupCommitInlineForceMicros = groupCommitInlineForceMicros;
    }
}
