package dev.wharf.broker.ha;

import dev.wharf.store.ReplicableStore;
import dev.wharf.store.commitlog.RecordFingerprint;
import dev.wharf.store.commitlog.ReplicaSlice;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's end of one slave connection: a reader thread that checks the handshake and then takes acks, and
 * a transfer thread that streams the commit log from where the slave's log ends, whole records at a time,
 * straight from the mapped files to the socket (no copy through the heap), with a heartbeat when idle. Any
 * protocol error is answered with a REFUSED frame naming it, logged once, and closes this connection only.
 */
final class HaConnection {

    private static final Logger log = LoggerFactory.getLogger(HaConnection.class);

    private final FrameChannel channel;
    private final ReplicableStore store;
    private final HaConfig config;
    private final String brokerName;
    private final ReplicaTracker tracker;
    private final Runnable onClose;
    private final EpochFile epochs;
    private final HaSecurity security;
    /** The master's epoch when this connection was accepted (a new term closes every connection). */
    private volatile int epoch = HaFrame.CLASSIC_EPOCH;
    private final ByteBuffer transferHeader = ByteBuffer.allocate(HaFrame.TRANSFER_FIXED_SIZE);
    private final ByteBuffer accepted = ByteBuffer.allocate(HaFrame.ACCEPTED_SIZE);
    private final AtomicBoolean sleeping = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Thread transferThread;
    private volatile ReplicaTracker.Replica replica;
    /** Offset just past the last byte sent: acks beyond it are lies. */
    private volatile long sentOffset = -1;
    /** Stage timing only: when an append woke the transfer thread (0: not since its last send). */
    private volatile long wokenNanos;
    /** Stage timing only: the ends and sending times of the last transfers, written by the transfer thread. */
    private final long[] sentEnds = AckPathTiming.ENABLED ? new long[64] : null;
    private final long[] sentNanos = AckPathTiming.ENABLED ? new long[64] : null;
    private volatile int sentCount;
    /** Longest sleep between looks for new data: long when appends wake this connection, short otherwise. */
    private final long maxIdleNanos;

    HaConnection(FrameChannel channel, ReplicableStore store, HaConfig config, String brokerName,
                 ReplicaTracker tracker, long maxIdleNanos, EpochFile epochs, HaSecurity security, Runnable onClose) {
        this.epochs = epochs;
        this.security = security;
        this.maxIdleNanos = maxIdleNanos;
        this.channel = channel;
        this.store = store;
        this.config = config;
        this.brokerName = brokerName;
        this.tracker = tracker;
        this.onClose = onClose;
    }

    void start() {
        Thread reader = new Thread(this::readLoop, "wharf-ha-read-" + channel.peer());
        reader.setDaemon(true);
        reader.start();
    }

    String peer() {
        return channel.peer();
    }

    /** Called after every append: wakes the transfer thread if it sleeps. */
    void dataArrived() {
        if (sleeping.compareAndSet(true, false)) {
            if (AckPathTiming.ENABLED) {
                wokenNanos = System.nanoTime();
            }
            Thread t = transferThread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Closes the connection when nothing was read for haHousekeepingInterval. */
    void checkIdle(long now) {
        if (now - channel.lastReadMillis() > config.getHaHousekeepingInterval()) {
            log.warn("HA connection from {} sent nothing for {} ms; closing it", channel.peer(),
                    now - channel.lastReadMillis());
            close();
        }
    }

    void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        channel.close();
        ReplicaTracker.Replica r = replica;
        if (r != null) {
            tracker.remove(r);
        }
        Thread t = transferThread;
        if (t != null) {
            LockSupport.unpark(t);
        }
        onClose.run();
    }

    private void readLoop() {
        try {
            security.accept(channel, brokerName); // TLS and authentication first; leaves the HANDSHAKE read
            long start = handshake();
            if (start < 0) {
                channel.readFrame(); // the replica cuts its log and closes; nothing else may come
                throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, "a replica told to truncate sent "
                        + HaFrame.typeName(channel.type()) + " instead of closing");
            }
            startTransfer(start);
            while (!closed.get()) {
                channel.readFrame();
                onAck();
            }
        } catch (HaProtocolException e) {
            log.error("Refusing HA connection from {} ({}): {}", channel.peer(), HaFrame.reasonName(e.reason()),
                    e.getMessage());
            channel.refuse(e.reason(), epoch, e.getMessage());
        } catch (SSLException e) {
            if (!closed.get() && replica == null) {
                log.error("Refusing HA connection from {}: TLS handshake failed ({}); the slave needs"
                        + " innerClientTlsEnable=true and a trust store holding this broker's certificate",
                        channel.peer(), e.getMessage());
            } else if (!closed.get()) {
                log.warn("HA connection from {} failed: {}", channel.peer(), e.toString());
            }
        } catch (EOFException e) {
            log.info("HA connection from {} closed by the slave", channel.peer());
        } catch (IOException e) {
            if (!closed.get()) {
                log.warn("HA connection from {} failed: {}", channel.peer(), e.toString());
            }
        } catch (RuntimeException e) {
            log.error("HA connection from {} failed", channel.peer(), e);
        } finally {
            close();
        }
    }

    /** Checks the slave's handshake; answers ACCEPTED and returns where the transfer starts. */
    private long handshake() throws HaProtocolException, IOException {
        if (channel.type() != HaFrame.TYPE_HANDSHAKE) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, "the first frame must be a HANDSHAKE, not "
                    + HaFrame.typeName(channel.type()));
        }
        ByteBuffer body = channel.body();
        if (body.remaining() < HaFrame.HANDSHAKE_FIXED_SIZE) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, "the HANDSHAKE is " + body.remaining()
                    + " bytes, shorter than its " + HaFrame.HANDSHAKE_FIXED_SIZE + "-byte fixed part");
        }
        long slaveMax = body.getLong(HaFrame.HANDSHAKE_MAX_OFFSET);
        long brokerId = body.getLong(HaFrame.HANDSHAKE_BROKER_ID);
        long lastOffset = body.getLong(HaFrame.HANDSHAKE_LAST_OFFSET);
        int lastSize = body.getInt(HaFrame.HANDSHAKE_LAST_SIZE);
        int lastCrc = body.getInt(HaFrame.HANDSHAKE_LAST_CRC);
        int nameLength = body.getShort(HaFrame.HANDSHAKE_NAME_LENGTH) & 0xFFFF;
        if (nameLength > HaFrame.MAX_NAME_LENGTH || HaFrame.HANDSHAKE_FIXED_SIZE + nameLength != body.remaining()) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, "the HANDSHAKE's broker name length "
                    + nameLength + " does not match the frame");
        }
        byte[] name = new byte[nameLength];
        body.get(HaFrame.HANDSHAKE_FIXED_SIZE, name);
        String slaveName = new String(name, StandardCharsets.UTF_8);
        String who = "slave " + slaveName + " id " + brokerId + " at " + channel.peer();
        if (!brokerName.equals(slaveName)) {
            throw new HaProtocolException(HaFrame.REFUSED_WRONG_BROKER, who + " is a slave of broker \"" + slaveName
                    + "\" but this is the master of \"" + brokerName + "\"; point its haMasterAddress at the master"
                    + " of its own broker name");
        }
        if (brokerId <= 0) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, who + " has brokerId " + brokerId
                    + "; slaves have ids above 0");
        }
        List<EpochEntry> history = epochs.entries();
        if (history.isEmpty() && channel.epoch() != HaFrame.CLASSIC_EPOCH) {
            throw new HaProtocolException(HaFrame.REFUSED_EPOCH, who + " is in epoch " + channel.epoch()
                    + " but this master has no epoch history (classic replication); the slave's log comes from a"
                    + " master elected by a controller: move its store aside or run this group in controller mode");
        }
        epoch = history.isEmpty() ? HaFrame.CLASSIC_EPOCH : history.get(history.size() - 1).epoch();
        long masterMax = store.getMaxPhyOffset();
        long masterMin = store.getMinPhyOffset();
        long start;
        if (!history.isEmpty() && slaveMax != 0 && !sameLog(slaveMax, lastOffset, lastSize, lastCrc, masterMax)) {
            // an elected master lets the replica find its last common point from the epochs and cut back to it
            replica = null;
            sendAccepted(masterMax, HaFrame.ACCEPTED_TRUNCATE_FIRST, history);
            log.info("{} ends at {} and does not match this master's log (end {}); it cuts back to the last common"
                    + " point of the epoch histories and reconnects", who, slaveMax, masterMax);
            return -1;
        }
        if (slaveMax == 0) {
            start = masterMin; // an empty slave copies everything the master still has
        } else {
            if (slaveMax > masterMax) {
                throw new HaProtocolException(HaFrame.REFUSED_SLAVE_AHEAD, who + " has a commit log ending at "
                        + slaveMax + ", beyond this master's end " + masterMax + "; it holds records the master"
                        + " does not (an old master?). Nothing was overwritten; move its store aside (or truncate"
                        + " it to " + masterMax + ") before it can follow this master");
            }
            if (lastOffset < masterMin || slaveMax < masterMin) {
                throw new HaProtocolException(HaFrame.REFUSED_TOO_FAR_BEHIND, who + " ends at " + slaveMax
                        + " but this master's oldest byte is at " + masterMin + " (older files were deleted);"
                        + " move the slave's store aside so it copies from scratch");
            }
            RecordFingerprint mine = store.fingerprintAt(lastOffset);
            if (mine == null || mine.size() != lastSize || mine.crc() != lastCrc || lastOffset + lastSize != slaveMax) {
                throw new HaProtocolException(HaFrame.REFUSED_DIVERGED, who + " diverges from this master: its"
                        + " last record at offset " + lastOffset + " (size " + lastSize + ", crc " + lastCrc
                        + ") is not the master's record there ("
                        + (mine == null ? "no record starts there" : "size " + mine.size() + ", crc " + mine.crc())
                        + "). Nothing was overwritten; move its store aside so it copies from scratch");
            }
            start = slaveMax;
        }
        replica = tracker.add(brokerId, channel.peer());
        sendAccepted(masterMax, start, history);
        log.info("Accepted {}: streaming from offset {} (master ends at {})", who, start, masterMax);
        return start;
    }

    /** Whether the slave's log ends inside this master's with the same last record. */
    private boolean sameLog(long slaveMax, long lastOffset, int lastSize, int lastCrc, long masterMax) {
        if (slaveMax > masterMax || lastOffset < store.getMinPhyOffset()) {
            return false;
        }
        RecordFingerprint mine = store.fingerprintAt(lastOffset);
        return mine != null && mine.size() == lastSize && mine.crc() == lastCrc && lastOffset + lastSize == slaveMax;
    }

    private void sendAccepted(long masterMax, long start, List<EpochEntry> history) throws IOException {
        ByteBuffer body = history.isEmpty() ? accepted
                : ByteBuffer.allocate(HaFrame.ACCEPTED_SIZE + HaFrame.EPOCH_ENTRY_SIZE * history.size());
        body.clear();
        body.putLong(masterMax).putLong(start);
        for (EpochEntry e : history) {
            body.putInt(e.epoch()).putLong(e.startOffset());
        }
        body.flip();
        channel.write(HaFrame.TYPE_ACCEPTED, epoch, body, null);
    }

    private void onAck() throws HaProtocolException {
        if (channel.type() != HaFrame.TYPE_ACK || channel.body().remaining() != HaFrame.ACK_SIZE) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, "expected an ACK of " + HaFrame.ACK_SIZE
                    + " bytes, got " + HaFrame.typeName(channel.type()) + " of " + channel.body().remaining());
        }
        long offset = channel.body().getLong(0);
        ReplicaTracker.Replica r = replica;
        long sent = sentOffset;
        if (offset > sent || offset < r.acked) {
            throw new HaProtocolException(HaFrame.REFUSED_WRONG_OFFSET, "slave id " + r.brokerId + " acked offset "
                    + offset + " but was sent bytes up to " + sent + " and last acked " + r.acked);
        }
        if (AckPathTiming.ENABLED) {
            timeAck(offset);
        }
        tracker.acked(r, offset);
    }

    private void startTransfer(long start) {
        sentOffset = start;
        Thread t = new Thread(() -> transferLoop(start), "wharf-ha-transfer-" + channel.peer());
        t.setDaemon(true);
        transferThread = t;
        t.start();
    }

    private void transferLoop(long start) {
        long next = start;
        long heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(config.getHaSendHeartbeatInterval());
        try {
            while (!closed.get()) {
                ReplicaSlice slice = store.readCommitLog(next, config.getHaTransferBatchSize());
                if (slice == null) {
                    if (store.getMaxPhyOffset() > next) {
                        slice = store.readCommitLog(next, config.getHaTransferBatchSize()); // raced an append
                        if (slice == null) {
                            throw new IOException("no whole record starts at commit-log offset " + next
                                    + " although the log ends at " + store.getMaxPhyOffset() + " (record there: "
                                    + store.fingerprintAt(next) + ")");
                        }
                    } else {
                        idle(next, heartbeatNanos);
                        continue;
                    }
                }
                try {
                    // before the bytes leave: the slave may ack them before this thread runs again
                    sentOffset = slice.nextOffset();
                    if (AckPathTiming.ENABLED) {
                        timedSend(next, slice.nextOffset(), slice.bytes());
                    } else {
                        send(next, slice.bytes());
                    }
                    next = slice.nextOffset();
                } finally {
                    slice.release();
                }
            }
        } catch (IOException e) {
            if (!closed.get()) {
                log.warn("Streaming to {} failed: {}", channel.peer(), e.toString());
            }
        } catch (RuntimeException e) {
            log.error("Streaming to {} failed", channel.peer(), e);
        } finally {
            close();
        }
    }

    /** Sleeps until an append or the heartbeat interval; sends a heartbeat when nothing was sent for that long. */
    private void idle(long next, long heartbeatNanos) throws IOException {
        sleeping.set(true);
        if (store.getMaxPhyOffset() > next) {
            sleeping.set(false);
            return;
        }
        long sinceWrite = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis() - channel.lastWriteMillis());
        if (sinceWrite >= heartbeatNanos) {
            sleeping.set(false);
            send(next, null);
            return;
        }
        LockSupport.parkNanos(this, Math.min(heartbeatNanos - sinceWrite, maxIdleNanos));
        sleeping.set(false);
    }

    /** {@link #send} with its stages timed (the ack of {@code end} is matched to it by {@link #timeAck}). */
    private void timedSend(long offset, long end, ByteBuffer data) throws IOException {
        int bytes = data.remaining();
        int slot = sentCount & (sentEnds.length - 1);
        long began = System.nanoTime();
        sentEnds[slot] = end;
        sentNanos[slot] = began; // before the bytes leave: the ack may be read before this thread runs again
        sentCount++;
        send(offset, data);
        long now = System.nanoTime();
        AckPathTiming.time(AckPathTiming.Stage.TRANSFER_WRITE, now - began);
        AckPathTiming.count(AckPathTiming.Stage.TRANSFER_BYTES, bytes);
        long woken = wokenNanos;
        if (woken != 0) {
            wokenNanos = 0;
            AckPathTiming.time(AckPathTiming.Stage.WAKE_TO_SENT, now - woken);
        }
    }

    /** The round trip of the transfer whose end the slave acked (a heartbeat ack matches none). */
    private void timeAck(long offset) {
        int count = sentCount;
        for (int i = 1; i <= Math.min(count, sentEnds.length); i++) {
            int slot = (count - i) & (sentEnds.length - 1);
            if (sentEnds[slot] == offset) {
                AckPathTiming.time(AckPathTiming.Stage.ACK_ROUND_TRIP, System.nanoTime() - sentNanos[slot]);
                sentEnds[slot] = -1;
                return;
            }
        }
    }

    private void send(long offset, ByteBuffer data) throws IOException {
        transferHeader.clear();
        transferHeader.putLong(offset).putLong(store.getMaxPhyOffset()).putLong(tracker.replicatedOffset()).flip();
        channel.write(HaFrame.TYPE_TRANSFER, epoch, transferHeader, data);
    }
}
