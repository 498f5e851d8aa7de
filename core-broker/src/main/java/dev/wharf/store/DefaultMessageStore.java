package dev.wharf.store;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.util.NamedThreadFactory;
import dev.wharf.store.cleanup.CleanCommitLogService;
import dev.wharf.store.cleanup.CleanConsumeQueueService;
import dev.wharf.store.cleanup.DeleteWhen;
import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.commitlog.CommitLogScanner;
import dev.wharf.store.commitlog.CommitLogSlices;
import dev.wharf.store.commitlog.FlushCommitLogService;
import dev.wharf.store.commitlog.GroupCommitService;
import dev.wharf.store.commitlog.RecordFingerprint;
import dev.wharf.store.commitlog.ReplicaAppendResult;
import dev.wharf.store.commitlog.ReplicaSlice;
import dev.wharf.store.commitlog.QuarantinedRanges;
import dev.wharf.store.dispatch.CommitLogDispatcher;
import dev.wharf.store.dispatch.DispatchRequest;
import dev.wharf.store.dispatch.FlushConsumeQueueService;
import dev.wharf.store.dispatch.ReputMessageService;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.SelectMappedBufferResult;
import dev.wharf.store.health.DiskSpaceGuard;
import dev.wharf.store.health.StoreHealth;
import dev.wharf.store.index.IndexService;
import dev.wharf.store.queue.ConsumeQueue;
import dev.wharf.store.queue.ConsumeQueueStore;
import dev.wharf.store.queue.PutUnitStatus;
import dev.wharf.store.queue.QueueManifest;
import dev.wharf.store.recovery.AbortFile;
import dev.wharf.store.recovery.CheckpointLayout;
import dev.wharf.store.recovery.CommitLogRecovery;
import dev.wharf.store.recovery.QuarantineEntry;
import dev.wharf.store.recovery.QuarantineReport;
import dev.wharf.store.recovery.StoreCheckpoint;
import dev.wharf.store.recovery.StoreFormatVersion;
import dev.wharf.store.recovery.StoreLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store: wires commit log, consume queues, index, dispatcher, flush, recovery and clean-up together.
 * Each part lives in its own package; this class only decides the order in which they start and stop.
 * Thread-safe.
 */
public final class DefaultMessageStore implements ReplicableStore {

    /** Room a consume queue needs to take its next unit: one page. */
    private static final long CONSUME_QUEUE_ROOM = 4096;

    private static final Logger log = LoggerFactory.getLogger(DefaultMessageStore.class);

    private final MessageStoreConfig config;
    private final Path root;
    private final CommitLog commitLog;
    private final ConsumeQueueStore consumeQueues;
    private final IndexService index;
    private final ReputMessageService reput;
    private final LongAdder forces = new LongAdder();
    private final StoreStats stats;
    private final GroupCommitService groupCommit;
    private final FlushCommitLogService asyncFlush;
    private final MessagePutter putter;
    private final QueueMessageReader reader;
    private final AbortFile abortFile;
    private final QuarantineReport quarantine;
    private final RecordReadCheck readCheck;
    private volatile MessageArrivingListener arrivingListener;
    private final StoreHealth health = new StoreHealth();
    private final DiskSpaceGuard diskSpace;
    private final List<Runnable> appendListeners = new CopyOnWriteArrayList<>();
    private volatile LongSupplier confirmOffset;
    /** Hears the commit log's new min offset after a clean-up deleted files (replication's epoch history). */
    private volatile java.util.function.LongConsumer logStartListener;

    private StoreLock lock;
    private StoreCheckpoint checkpoint;
    private FlushConsumeQueueService flushConsumeQueue;
    private ScheduledExecutorService scheduler;
    private CleanCommitLogService cleanCommitLog;
    private CleanConsumeQueueService cleanConsumeQueue;
    private volatile boolean running;
    private CommitLogRecovery.Result lastRecovery;
    private boolean used;
    /** Serializes manifest writes (periodic, topic deletion, shutdown). */
    private final Object manifestLock = new Object();
    /** Confirmed dispatch offset the last manifest was written at. */
    private volatile long lastManifestOffset = -1;

    public DefaultMessageStore(MessageStoreConfig config) {
        config.validate();
        this.config = config;
        this.root = config.rootPath();
        this.commitLog = new CommitLog(root.resolve("commitlog"), config.getMappedFileSizeCommitLog(),
                config.getMaxMessageSize());
        commitLog.setWritable(false);
        commitLog.mappedFileQueue().setWarmNewFiles(config.isWarmMapedFileEnable());
        this.diskSpace = new DiskSpaceGuard(root, config.getDiskSpaceWarningLevelRatio(), health);
        commitLog.setSpaceGuard(config.preallocateStepCommitLog(), diskSpace, health);
        commitLog.mappedFileQueue().setForcedPerRecord(config.getFlushDiskType() == FlushDiskType.SYNC_FLUSH);
        this.consumeQueues = new ConsumeQueueStore(root.resolve("consumequeue"), config.getMappedFileSizeConsumeQueue(),
                config.getMaxMappedConsumeQueues(), config.getConsumeQueueIdleUnmapMillis());
        this.index = new IndexService(root.resolve("index"), config.getMaxHashSlotNum(), config.getMaxIndexNum());
        this.reput = new ReputMessageService(commitLog, 100, health);
        this.stats = new StoreStats(forces, reput::behindBytes, reput::dispatchedCount);
        if (config.getFlushDiskType() == FlushDiskType.SYNC_FLUSH) {
            this.groupCommit = new GroupCommitService(commitLog.mappedFileQueue(), config.getSyncFlushTimeout(), forces);
            groupCommit.setHealth(health);
            groupCommit.setForceListener(stats::recordFlushNanos);
            groupCommit.setGatherMicros(config.getGroupCommitGatherMicros());
            groupCommit.setInlineForceLimitMicros(config.getGroupCommitInlineForceMicros());
            this.asyncFlush = null;
        } else {
            this.groupCommit = null;
            this.asyncFlush = new FlushCommitLogService(commitLog.mappedFileQueue(), config.getFlushIntervalCommitLog(),
                    config.getFlushCommitLogLeastPages(), config.getFlushCommitLogThoroughInterval(), forces);
            asyncFlush.setHealth(health);
            asyncFlush.setForceListener(stats::recordFlushNanos);
        }
        this.putter = new MessagePutter(commitLog, groupCommit, stats, config.getStoreHost(), health, diskSpace);
        QuarantinedRanges damaged = new QuarantinedRanges();
        this.quarantine = new QuarantineReport(root, damaged);
        this.readCheck = new RecordReadCheck(config.isCheckCRCOnRead(), damaged, quarantine);
        reput.setQuarantinedRanges(damaged);
        stats.bindQuarantine(damaged::size, quarantine::recordedCount, readCheck::skippedCount);
        this.reader = new QueueMessageReader(commitLog, consumeQueues, index, config, stats, reput::getConfirmedOffset,
                readCheck);
        this.abortFile = new AbortFile(root);

        reput.addDispatcher(new QueueUnitDispatcher(consumeQueues, this::quarantineUndispatchable,
                this::unitNotStored));
        if (config.isMessageIndexEnable()) {
            reput.addDispatcher(index::buildIndex);
        }
        // long polling learns of a message only when readers can see it (a batch: once it is whole)
        reput.addConfirmedDispatcher(request -> {
            stats.recordStored(request.topic(), request.msgSize());
            MessageArrivingListener listener = arrivingListener;
            if (listener != null) {
                listener.arriving(request.topic(), request.queueId(), request.consumeQueueOffset(), request.tagsCode(),
                        request.storeTimestamp(), request.properties());
            }
        });
        commitLog.setAppendListener(this::appended);
        // a queue's next offset is read from its consume queue when first needed, so a start opens no queue
        commitLog.setQueueOffsetSource((topic, queueId) -> {
            ConsumeQueue cq = consumeQueues.find(topic, queueId);
            return cq == null ? 0L : cq.getMaxOffsetInQueue();
        });
    }

    @Override
    public synchronized void start() throws IOException {
        if (used) {
            throw new IllegalStateException("This store object was already started once (at " + root
                    + "); create a new DefaultMessageStore to open the store again.");
        }
        used = true;
        Files.createDirectories(root);
        lock = StoreLock.acquire(root);
        try {
            StoreFormatVersion.checkOrCreate(root); // refuses a store of a newer format before reading anything
            long t0 = System.nanoTime();
            boolean lastExitOk = !abortFile.exists();
            checkpoint = StoreCheckpoint.open(root);
            commitLog.load();
            QueueManifest manifest = QueueManifest.read(manifestPath());
            quarantine.load();
            boolean indexUnreadable = false;
            try {
                index.load(lastExitOk);
            } catch (IOException e) {
                log.warn("The message index cannot be opened ({}); it is rebuilt from the commit log", e.getMessage());
                indexUnreadable = true;
            }
            long t1 = System.nanoTime();
            CommitLogRecovery.Result recovered =
                    CommitLogRecovery.recover(commitLog, checkpoint, lastExitOk, config.isCheckCRCOnRecover());
            lastRecovery = recovered;
            recordQuarantined(recovered);
            boolean exactManifest = manifest != null && lastExitOk && manifest.clean() && !recovered.scanned()
                    && manifest.dispatchedOffset() == recovered.maxPhyOffset();
            long t2 = System.nanoTime();
            List<ConsumeQueue> damaged = DerivedDataCheck.registerQueues(consumeQueues, manifest, exactManifest,
                    recovered.maxPhyOffset() <= Math.max(0, commitLog.getMinOffset()));
            if (!exactManifest) {
                consumeQueues.truncateDirty(recovered.maxPhyOffset());
            }
            index.truncate(recovered.maxPhyOffset());
            boolean rebuildIndex = indexUnreadable || indexEndsShort(manifest, recovered.maxPhyOffset());
            long t3 = System.nanoTime();
            DerivedDataCheck.Outcome checked = DerivedDataCheck.rebuild(commitLog, consumeQueues, index,
                    config.isMessageIndexEnable(), damaged, rebuildIndex, manifest, lastExitOk, recovered);

            long t3b = System.nanoTime();
            abortFile.create();
            checkpoint.setCleanShutdownOffset(CheckpointLayout.RUNNING);
            checkpoint.flush();

            // re-dispatch what the consume queues and index miss; queue offsets come from the queues when needed
            reput.setReputFromOffset(checked.dispatchFrom());
            catchUpDispatch();
            long t4 = System.nanoTime();
            commitLog.clearQueueOffsets();
            if (checked.writeManifest()) {
                writeManifest(false);
            }
            diskSpace.check();
            // from here on consumers see only what replication confirmed (start-up dispatched the whole log)
            reput.setDispatchLimit(confirmOffset);
            startServices();
            commitLog.setWritable(true);
            running = true;
            log.info("Store started at {}: commit log [{}, {}), {} queue(s) in {} topic(s), {} mapped, {} recovery;"
                    + " load {} ms, commit-log recovery {} ms, queue check {} ms, rebuild {} ms, dispatch {} ms",
                    root, commitLog.getMinOffset(), commitLog.getMaxOffset(), consumeQueues.queueCount(),
                    consumeQueues.all().size(), consumeQueues.mappedQueueCount(), lastExitOk ? "clean" : "crash",
                    millis(t0, t1), millis(t1, t2), millis(t2, t3), millis(t3, t3b), millis(t3b, t4));
        } catch (IOException | RuntimeException e) {
            releaseAfterFailedStart();
            throw e;
        } catch (InternalError e) {
            // a mapped file faulted while it was read or repaired: on a full disk, reading a hole may need a block
            releaseAfterFailedStart();
            throw new IOException("Could not open the store at " + root + ": " + StoreHealth.describe(e)
                    + " while reading its files. If the disk is full, free space on it"
                    + (diskSpace.usableBytes() >= 0 ? " (" + diskSpace.usableBytes() + " bytes free now)" : "")
                    + " and start again.", e);
        }
    }

    /**
     * Dispatches what the consume queues and index miss before puts are taken: the next queue offsets come from
     * the consume queues, so the store cannot start while records are left undispatched.
     */
    private void catchUpDispatch() throws IOException {
        try {
            reput.doReput();
        } catch (RuntimeException | InternalError e) {
            throw new IOException("Could not rebuild the consume queues and index from the commit log (stuck at"
                    + " offset " + reput.getReputFromOffset() + " on " + StoreHealth.describe(e) + "). If the disk"
                    + " holding " + root + " is full, free space on it and start again.", e);
        }
    }

    /** Lists what recovery skipped or lost in the quarantine report; forgets ranges past the new end. */
    private void recordQuarantined(CommitLogRecovery.Result recovered) {
        quarantine.cut(recovered.maxPhyOffset());
        for (QuarantineEntry entry : recovered.quarantined()) {
            if (quarantine.record(entry)) {
                log.error("Recovery {} {} (listed in {})", entry.endOfLog() ? "lost" : "skipped and quarantined",
                        entry.summary(), quarantine.path());
            }
        }
    }

    /** A record whose header cannot be true is never dispatched: it is quarantined (dispatch thread). */
    /**
     * A consume-queue unit that could not be stored. Never skipped: the dispatcher retries the record, and the
     * store refuses puts until it gets past.
     */
    private void unitNotStored(DispatchRequest request) {
        String what = "consume queue " + request.topic() + "-" + request.queueId() + " could not store unit "
                + request.consumeQueueOffset();
        long usable = diskSpace.usableBytes();
        String reason = usable >= 0 && usable < CONSUME_QUEUE_ROOM
                ? diskSpace.noRoom(CONSUME_QUEUE_ROOM, null) + " (" + what + ")"
                : what + " (the file could not be created or mapped; see the log)";
        throw new UncheckedIOException(reason, new IOException(what));
    }

    private void quarantineUndispatchable(DispatchRequest request, String problem) {
        long phy = request.commitLogOffset();
        int fileSize = config.getMappedFileSizeCommitLog();
        QuarantineEntry entry = new QuarantineEntry(phy, request.msgSize(), MappedFile.fileName(phy - phy % fileSize),
                phy % fileSize, "damaged record header: " + problem, "dispatch", request.topic(), request.queueId(),
                request.consumeQueueOffset(), request.uniqKey(), false);
        if (quarantine.record(entry)) {
            log.error("Record not dispatched, quarantined: {} (listed in {})", entry.summary(), quarantine.path());
        }
    }

    private void releaseAfterFailedStart() {
        if (lock == null) {
            return; // locked by someone else: nothing was opened
        }
        reput.shutdown();
        try {
            consumeQueues.shutdown();
            index.shutdown();
        } catch (RuntimeException e) {
            log.debug("Cleaning up after a failed start: {}", e.toString());
        }
        commitLog.shutdown();
        closeFiles();
    }

    private static long millis(long fromNanos, long toNanos) {
        return TimeUnit.NANOSECONDS.toMillis(toNanos - fromNanos);
    }

    private Path manifestPath() {
        return root.resolve(QueueManifest.FILE_NAME);
    }

    /**
     * Whether index files are gone: the manifest saw the index reach a message the commit log still holds, and
     * the index files now end below it.
     */
    private boolean indexEndsShort(QueueManifest manifest, long commitLogEnd) {
        if (manifest == null || !config.isMessageIndexEnable()) {
            return false;
        }
        long recorded = manifest.indexedOffset();
        long stored = index.lastStoredPhyOffset();
        if (recorded >= 0 && recorded >= commitLog.getMinOffset() && recorded < commitLogEnd && stored < recorded) {
            log.warn("The message index ends at commit-log offset {} but reached {} before the stop (index files"
                    + " are missing); it is rebuilt from the commit log", stored, recorded);
            return true;
        }
        return false;
    }

    /**
     * Writes the queue manifest: every queue's ends, checked at the next start. {@code clean} only at a clean
     * stop, when the ends are exact.
     */
    private void writeManifest(boolean clean) {
        synchronized (manifestLock) {
            long dispatched = reput.getConfirmedOffset(); // before the ends: they cover at least this
            try {
                consumeQueues.manifest(dispatched, index.lastStoredPhyOffset(), clean).write(manifestPath());
                lastManifestOffset = dispatched;
            } catch (ClosedByInterruptException e) {
                log.debug("Manifest write interrupted (shutdown writes it again)");
            } catch (IOException | RuntimeException e) {
                log.error("Could not write the queue manifest {}; the next start checks the queues against the older"
                        + " one", manifestPath(), e);
            }
        }
    }

    private void writeManifestIfChanged() {
        if (reput.getConfirmedOffset() != lastManifestOffset) {
            writeManifest(false);
        }
    }

    private void startServices() {
        if (groupCommit != null) {
            groupCommit.start();
        } else {
            asyncFlush.start();
        }
        reput.start();
        flushConsumeQueue = new FlushConsumeQueueService(consumeQueues::flush, index::flush, reput::getReputFromOffset,
                commitLog::getFlushedWhere, () -> commitLog.mappedFileQueue().getStoreTimestamp(), checkpoint,
                config.getFlushIntervalConsumeQueue(), config.getFlushConsumeQueueLeastPages(),
                config.getFlushConsumeQueueThoroughInterval());
        flushConsumeQueue.setHealth(health);
        flushConsumeQueue.start();
        cleanCommitLog = new CleanCommitLogService(commitLog, config.getFileReservedTime() * 3_600_000L,
                DeleteWhen.parse(config.getDeleteWhen()), config.getDiskMaxUsedSpaceRatio(),
                config.getDestroyMapedFileIntervalForcibly(), config.getDeleteCommitLogFilesInterval(),
                Clock.systemDefaultZone());
        cleanConsumeQueue = new CleanConsumeQueueService(commitLog::getMinOffset, this::deleteDerivedBelow);
        scheduler = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("wharf-store-cleanup"));
        scheduler.scheduleWithFixedDelay(this::cleanOnce, config.getCleanResourceInterval(),
                config.getCleanResourceInterval(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::writeManifestIfChanged, config.getQueueManifestInterval(),
                config.getQueueManifestInterval(), TimeUnit.MILLISECONDS);
    }

    private void cleanOnce() {
        try {
            diskSpace.check();
            cleanCommitLog.run();
            cleanConsumeQueue.run();
        } catch (RuntimeException e) {
            log.error("Clean-up round failed; will retry next round", e);
        } catch (Throwable t) {
            // a scheduled task that throws is never run again: stay scheduled, but the store cannot be trusted
            health.fail("the clean-up service", t);
        }
    }

    private void deleteDerivedBelow(long minPhyOffset) {
        consumeQueues.deleteExpired(minPhyOffset); // also moves each queue's min offset past the deleted range
        index.deleteExpiredFile(minPhyOffset);
        java.util.function.LongConsumer l = logStartListener;
        if (l != null) {
            l.accept(minPhyOffset);
        }
    }

    @Override
    public void setLogStartListener(java.util.function.LongConsumer listener) {
        this.logStartListener = listener;
    }

    @Override
    public synchronized void shutdown() {
        if (!running) {
            return;
        }
        running = false;
        commitLog.setWritable(false);
        scheduler.shutdownNow();
        awaitQuietly(scheduler);
        reput.shutdown();
        if (groupCommit != null) {
            groupCommit.shutdown();
        } else {
            asyncFlush.shutdown();
        }
        int forced = commitLog.mappedFileQueue().flushAll();
        forces.add(forced);
        flushConsumeQueue.shutdown();
        flushConsumeQueue.flushNow();
        boolean complete = reput.getReputFromOffset() >= commitLog.getMaxOffset()
                && commitLog.getFlushedWhere() >= commitLog.getMaxOffset();
        try {
            if (complete) {
                checkpoint.setCleanShutdownOffset(commitLog.getMaxOffset());
                checkpoint.flush();
            } else {
                log.warn("Shutdown with undispatched or unflushed data; the next start validates the commit log");
            }
        } catch (IOException e) {
            log.error("Could not write the final checkpoint; the next start validates the commit log", e);
            complete = false;
        }
        writeManifest(complete);
        consumeQueues.shutdown();
        index.shutdown();
        commitLog.shutdown();
        if (complete) {
            try {
                abortFile.delete();
            } catch (IOException e) {
                log.warn("Could not delete {}: {}", abortFile.path(), e.toString());
            }
        }
        closeFiles();
        log.info("Store at {} shut down{}", root, complete ? "" : " (recovery needed on next start)");
    }

    private void closeFiles() {
        quarantine.close();
        if (checkpoint != null) {
            checkpoint.close();
            checkpoint = null;
        }
        if (lock != null) {
            lock.close();
            lock = null;
        }
    }

    private static void awaitQuietly(ScheduledExecutorService executor) {
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public PutMessageResult putMessage(MessageToStore msg) {
        return putter.put(msg);
    }

    @Override
    public CompletableFuture<PutMessageResult> asyncPutMessage(MessageToStore msg) {
        return putter.putAsync(msg);
    }

    @Override
    public PutMessageResult putMessages(List<MessageToStore> batch) {
        return putter.putBatch(batch);
    }

    @Override
    public GetMessageResult getMessage(String topic, int queueId, long offset, int maxMsgNums, int maxTotalBytes,
            MessageFilter filter) {
        return reader.getMessage(topic, queueId, offset, maxMsgNums, maxTotalBytes, filter);
    }

    @Override
    public long visitQueueUnits(String topic, int queueId, long fromOffset, int maxUnits, QueueUnitVisitor visitor) {
        return reader.visitQueueUnits(topic, queueId, fromOffset, maxUnits, visitor);
    }

    @Override
    public long forEachRecord(long fromPhyOffset, Consumer<MessageExt> visitor) {
        return new CommitLogScanner(commitLog, quarantine.ranges()).forEach(fromPhyOffset, visitor);
    }

    @Override
    public long getMaxOffsetInQueue(String topic, int queueId) {
        return reader.getMaxOffsetInQueue(topic, queueId);
    }

    @Override
    public long getMinOffsetInQueue(String topic, int queueId) {
        ConsumeQueue cq = consumeQueues.find(topic, queueId);
        return cq == null ? 0 : cq.getMinOffsetInQueue();
    }

    @Override
    public long getOffsetInQueueByTime(String topic, int queueId, long timestampMillis) {
        return reader.getOffsetInQueueByTime(topic, queueId, timestampMillis);
    }

    @Override
    public long getCommitLogOffsetInQueue(String topic, int queueId, long queueOffset) {
        return reader.getCommitLogOffsetInQueue(topic, queueId, queueOffset);
    }

    @Override
    public long getMessageStoreTimestamp(String topic, int queueId, long queueOffset) {
        return reader.getMessageStoreTimestamp(topic, queueId, queueOffset);
    }

    @Override
    public long getEarliestMessageTime(String topic, int queueId) {
        return reader.getEarliestMessageTime(topic, queueId);
    }

    @Override
    public MessageExt readMessageAt(long commitLogOffset) {
        return reader.readMessageAt(commitLogOffset);
    }

    @Override
    public SelectMappedBufferResult selectOneMessageByOffset(long commitLogOffset) {
        return reader.selectOneMessage(commitLogOffset);
    }

    @Override
    public QueryMessageResult queryMessage(String topic, String key, int maxNum, long beginTimestamp, long endTimestamp) {
        return reader.queryMessage(topic, key, maxNum, beginTimestamp, endTimestamp);
    }

    @Override
    public long getMinPhyOffset() {
        return commitLog.getMinOffset();
    }

    @Override
    public long getMaxPhyOffset() {
        return commitLog.getMaxOffset();
    }

    @Override
    public long getConfirmedPhyOffset() {
        return reput.getConfirmedOffset();
    }

    @Override
    public boolean awaitDispatched(long timeoutMillis) {
        // released by the dispatch thread when it gets there (a completion signal, not a poll)
        return reput.awaitConfirmed(reput.dispatchEnd(), timeoutMillis);
    }

    @Override
    public long dispatchBehindBytes() {
        return reput.behindBytes();
    }

    @Override
    public void setMessageArrivingListener(MessageArrivingListener listener) {
        this.arrivingListener = listener;
    }

    @Override
    public void deleteTopics(Set<String> topics) {
        for (String topic : topics) {
            consumeQueues.deleteTopic(topic);
            commitLog.removeQueueOffsets(topic);
        }
        if (running && !topics.isEmpty()) {
            // a start after a crash must not take the deleted queues for missing ones and rebuild them
            writeManifest(false);
        }
    }

    @Override
    public Set<String> topicsWithQueues() {
        return new TreeSet<>(consumeQueues.all().keySet());
    }

    @Override
    public void cleanExpiredFilesNow() {
        ScheduledExecutorService executor = scheduler;
        if (!running || executor == null) {
            return;
        }
        cleanCommitLog.requestManualDelete();
        try {
            // on the scheduler thread, so it never overlaps a periodic round
            executor.submit(this::cleanOnce).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            log.error("Clean-up failed", e.getCause());
        }
    }

    @Override
    public StoreHealth health() {
        return health;
    }

    @Override
    public MessageStoreConfig config() {
        return config;
    }

    @Override
    public StoreStats stats() {
        return stats;
    }

    // ------------------------------------------------------------------ replication (ReplicableStore)

    private void appended() {
        // replication first: a SYNC_MASTER's senders wait for the transfer threads its listener wakes, and a
        // dispatcher woken before could take the core they need
        for (Runnable listener : appendListeners) {
            listener.run();
        }
        if (confirmOffset == null) {
            // with a confirm offset nothing new is dispatchable until it moves, and confirmOffsetMoved() wakes the
            // dispatcher then: waking it for every put as well only doubled its wake-ups
            reput.wakeup();
        }
    }

    @Override
    public ReplicaSlice readCommitLog(long offset, int maxBytes) {
        return CommitLogSlices.wholeRecords(commitLog, offset, maxBytes);
    }

    @Override
    public ReplicaAppendResult appendCommitLog(long offset, ByteBuffer records) {
        try {
            return appendCommitLogQuietly(offset, records);
        } finally {
            announceAppend();
        }
    }

    @Override
    public void announceAppend() {
        appended();
    }

    @Override
    public ReplicaAppendResult appendCommitLogQuietly(long offset, ByteBuffer records) {
        if (!running) {
            return ReplicaAppendResult.refused(commitLog.getMaxOffset(), "The store at " + root
                    + " is not started (or is shutting down); replicated bytes cannot be appended now.");
        }
        ReplicaAppendResult result = commitLog.appendReplicated(offset, records);
        if (result.ok()) {
            stats.recordPut(0, records.remaining());
            if (groupCommit != null && !groupCommit.waitForFlush(result.nextOffset())) {
                return ReplicaAppendResult.refused(result.nextOffset(), "The replicated bytes up to offset "
                        + result.nextOffset() + " are appended but the disk did not confirm them within"
                        + " syncFlushTimeout.");
            }
        }
        return result;
    }

    @Override
    public RecordFingerprint fingerprintAt(long offset) {
        return CommitLogSlices.fingerprint(commitLog, offset);
    }

    @Override
    public RecordFingerprint lastRecordFingerprint() {
        return CommitLogSlices.last(commitLog);
    }

    @Override
    public void addAppendListener(Runnable listener) {
        appendListeners.add(listener);
    }

    @Override
    public void setConfirmOffsetSupplier(LongSupplier confirmOffset) {
        this.confirmOffset = confirmOffset;
        if (running) {
            reput.setDispatchLimit(confirmOffset);
        }
    }

    @Override
    public void confirmOffsetMoved() {
        reput.wakeup();
    }

    @Override
    public void setPutReplication(PutReplication replication) {
        putter.setReplication(replication);
    }

    @Override
    public synchronized void truncateTo(long offset) throws IOException {
        if (!running) {
            throw new IllegalStateException("The store at " + root + " is not started; it cannot be truncated now.");
        }
        long max = commitLog.getMaxOffset();
        if (offset >= max) {
            return;
        }
        long min = commitLog.getMinOffset();
        if (offset < min || CommitLogSlices.fingerprint(commitLog, offset) == null) {
            throw new IllegalArgumentException("Cannot truncate the commit log at " + root + " to offset " + offset
                    + ": " + (offset < min ? "its oldest byte is at " + min : "no record starts there")
                    + " (the log holds [" + min + ", " + max + ")); the truncation point must be a record start.");
        }
        // the dispatcher must not build queue units from records being cut: stop it, cut, restart it below
        reput.shutdown();
        try {
            commitLog.truncateTo(offset);
            consumeQueues.truncateDirty(offset);
            index.truncate(offset);
            index.flush();
            quarantine.cut(offset);
            checkpoint.setSafeOffset(Math.min(checkpoint.getSafeOffset(), offset));
            checkpoint.flush();
            reput.setReputFromOffset(Math.min(reput.getReputFromOffset(), offset));
            catchUpDispatch(); // the next queue offsets come from the consume queues: they must be complete
            commitLog.clearQueueOffsets(); // next queue offsets are read again from the consume queues
        } finally {
            reput.start();
        }
        log.warn("Commit log at {} truncated from {} to {}: consume queues, index and queue offsets cut with it",
                root, max, offset);
    }

    @Override
    public synchronized boolean prepareForPuts(long timeoutMillis) {
        reput.setDispatchLimit(null); // a master's own log is its to dispatch until replication says otherwise
        if (!awaitDispatched(timeoutMillis)) {
            return false;
        }
        commitLog.clearQueueOffsets(); // next queue offsets are read again from the consume queues
        return true;
    }

    /** What recovery decided at the last start (tests, diagnostics). */
    CommitLogRecovery.Result lastRecovery() {
        return lastRecovery;
    }

    /** Adds a dispatcher after the store's own ones; call before {@link #start()} (tests). */
    void addDispatcher(CommitLogDispatcher dispatcher) {
        reput.addDispatcher(dispatcher);
    }

    /** Consume queues whose files are mapped now (tests, diagnostics, the many-queues benchmark). */
    public int mappedQueueCount() {
        return consumeQueues.mappedQueueCount();
    }

    /** The commit-log offset below which everything has been dispatched (tests, diagnostics). */
    long dispatchedOffset() {
        return reput.getReputFromOffset();
    }
}
