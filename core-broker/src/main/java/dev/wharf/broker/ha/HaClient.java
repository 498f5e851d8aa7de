package dev.wharf.broker.ha;

import dev.wharf.store.ReplicableStore;
import dev.wharf.store.commitlog.RecordFingerprint;
import dev.wharf.store.commitlog.ReplicaAppendResult;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's end: connects to the master's HA port, introduces itself (broker name, id, epoch, where its log
 * ends and a fingerprint of its last record), then appends every TRANSFER at exactly its own end and acks the
 * new end. A frame for another offset, or records its store refuses, close the connection with a REFUSED
 * naming the problem. Reconnects with a doubling back-off; a refusal by the master is logged once per distinct
 * reason. A ticker thread acks every haSendHeartbeatInterval and drops a master that went silent.
 */
final class HaClient {

    private static final Logger log = LoggerFactory.getLogger(HaClient.class);

    private final HaConfig config;
    private final String brokerName;
    private final long brokerId;
    private final ReplicableStore store;
    private final EpochFile epochs;
    private final ByteBuffer ack = ByteBuffer.allocate(HaFrame.ACK_SIZE);
    private final int maxFrameBody;
    private volatile HaSecurity security = HaSecurity.NONE;
    private volatile String masterAddress;
    private volatile FrameChannel channel;
    private volatile boolean running;
    private volatile boolean connected;
    private volatile long masterMaxOffset = -1;
    private volatile long masterConfirmOffset = -1;
    private volatile long lastTransferMillis;
    private volatile long lastAckMillis;
    private volatile String lastRefusal;
    /** The last refusal logged, so a master that keeps refusing for one reason is logged once. */
    private String loggedRefusal;
    /** Whether the current outage (no session since the last loss) was logged, so a dead master is logged once. */
    private boolean lossLogged;
    private Thread thread;
    private ScheduledExecutorService ticker;

    HaClient(HaConfig config, String brokerName, long brokerId, ReplicableStore store, int maxMessageSize,
             EpochFile epochs) {
        this.epochs = epochs;
        this.config = config;
        this.brokerName = brokerName;
        this.brokerId = brokerId;
        this.store = store;
        this.masterAddress = config.getHaMasterAddress();
        // one TRANSFER carries a batch or one record, which may be a whole maximum-size message
        this.maxFrameBody = Math.max(config.getHaTransferBatchSize(), 0) + maxMessageSize * 2 + 64 * 1024
                + HaFrame.MAX_REFUSAL_SIZE;
    }

    void start() {
        running = true;
        thread = new Thread(this::run, "wharf-ha-client");
        thread.setDaemon(true);
        thread.start();
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "wharf-ha-client-ticker");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(50, Math.min(1_000, config.getHaSendHeartbeatInterval() / 2));
        ticker.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
    }

    /** TLS and authentication of the connections made from now on. */
    void setSecurity(HaSecurity security) {
        this.security = security;
    }

    /** Points the slave at another master HA address (e.g. learnt from the NameServer); reconnects. */
    void setMasterAddress(String address) {
        if (Objects.equals(address, masterAddress)) {
            return;
        }
        masterAddress = address;
        FrameChannel c = channel;
        if (c != null) {
            c.close();
        }
    }

    String masterAddress() {
        return masterAddress;
    }

    boolean isConnected() {
        return connected;
    }

    long masterMaxOffset() {
        return masterMaxOffset;
    }

    long masterConfirmOffset() {
        return masterConfirmOffset;
    }

    String lastRefusal() {
        return lastRefusal;
    }

    long lastTransferMillis() {
        return lastTransferMillis;
    }

    void shutdown() {
        running = false;
        if (ticker != null) {
            ticker.shutdownNow();
        }
        FrameChannel c = channel;
        if (c != null) {
            c.close();
        }
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        long backoff = config.getHaReconnectInterval();
        while (running) {
            String address = masterAddress;
            if (address == null) {
                sleep(backoff);
                continue;
            }
            boolean accepted = false;
            try {
                accepted = session(address);
            } catch (HaProtocolException e) {
                String text = HaFrame.reasonName(e.reason()) + ": " + e.getMessage();
                lastRefusal = text;
                if (!text.equals(loggedRefusal)) {
                    loggedRefusal = text;
                    log.error("Replication from master {} of {} stopped ({}); retrying every {} ms until fixed",
                            address, brokerName, text, config.getHaReconnectMaxInterval());
                }
                backoff = config.getHaReconnectMaxInterval();
            } catch (IOException e) {
                if (running && !lossLogged) {
                    lossLogged = true;
                    log.info("HA connection to master {} lost: {}; retrying every {} ms at most, logged again once"
                            + " replicating", address, e.toString(), config.getHaReconnectMaxInterval());
                } else if (running) {
                    log.debug("HA connection to master {} failed again: {}", address, e.toString());
                }
            } catch (RuntimeException e) {
                log.error("HA client failed", e);
            } finally {
                connected = false;
                FrameChannel c = channel;
                channel = null;
                if (c != null) {
                    c.close();
                }
            }
            if (accepted) {
                backoff = config.getHaReconnectInterval();
            }
            if (running) {
                sleep(backoff);
                backoff = Math.min(config.getHaReconnectMaxInterval(), backoff * 2);
            }
        }
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(millis); // reconnection back-off, not a wait for a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** One connection: handshake, then appends until an error. Returns whether the master accepted us. */
    private boolean session(String address) throws IOException, HaProtocolException {
        int colon = address.lastIndexOf(':');
        InetSocketAddress target = new InetSocketAddress(address.substring(0, colon).trim(),
                Integer.parseInt(address.substring(colon + 1).trim()));
        SocketChannel socket = SocketChannel.open();
        FrameChannel c;
        try {
            socket.socket().connect(target, 3_000);
            socket.socket().setTcpNoDelay(true);
            socket.socket().setKeepAlive(true);
            c = new FrameChannel(socket, maxFrameBody);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        channel = c;
        try {
            security.connect(c, target.getHostString(), target.getPort(), brokerName);
        } catch (SSLException e) {
            throw new HaProtocolException(HaFrame.REFUSED_TLS, "TLS handshake with the master at " + address
                    + " failed (" + e.getMessage() + "); its HA port needs tlsMode enforcing or permissive, and"
                    + " innerClientTlsTrustCertPath must trust its certificate, which must name the host");
        }
        sendHandshake(c);
        c.readFrame();
        if (c.type() == HaFrame.TYPE_REFUSED) {
            throw FrameChannel.refusal(c.body(), address);
        }
        int length = c.body().remaining();
        if (c.type() != HaFrame.TYPE_ACCEPTED || length < HaFrame.ACCEPTED_SIZE
                || (length - HaFrame.ACCEPTED_SIZE) % HaFrame.EPOCH_ENTRY_SIZE != 0) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, "the master at " + address + " answered the"
                    + " handshake with " + HaFrame.typeName(c.type()) + " of " + length + " bytes");
        }
        masterMaxOffset = c.body().getLong(0);
        long start = c.body().getLong(8);
        List<EpochEntry> history = masterHistory(c.body(), address);
        if (!history.isEmpty() && reconcile(history, start, address)) {
            return true; // the log was cut back to the last common point: reconnect and copy from there
        }
        connected = true;
        loggedRefusal = null;
        lossLogged = false;
        log.info("Replicating {} from master {}: master ends at {}, transfer starts at {} (local end {})", brokerName,
                address, masterMaxOffset, start, store.getMaxPhyOffset());
        sendAck(c, store.getMaxPhyOffset()); // counts for SYNC_MASTER at once when already caught up
        while (running) {
            c.readFrame();
            try {
                onFrame(c);
            } catch (HaProtocolException e) {
                lastRefusal = HaFrame.reasonName(e.reason()) + ": " + e.getMessage();
                log.error("Refusing data from master {}: {}", address, e.getMessage());
                c.refuse(e.reason(), HaFrame.CLASSIC_EPOCH, e.getMessage());
                throw new IOException("closed after refusing the master's data: " + e.getMessage());
            }
        }
        return true;
    }

    private static List<EpochEntry> masterHistory(ByteBuffer body, String address) throws HaProtocolException {
        List<EpochEntry> history = new ArrayList<>();
        try {
            for (int at = HaFrame.ACCEPTED_SIZE; at < body.remaining(); at += HaFrame.EPOCH_ENTRY_SIZE) {
                EpochEntry e = new EpochEntry(body.getInt(at), body.getLong(at + 4));
                EpochEntry before = history.isEmpty() ? null : history.get(history.size() - 1);
                if (before != null && (e.epoch() <= before.epoch() || e.startOffset() < before.startOffset())) {
                    throw new IllegalArgumentException("entry " + e + " does not follow " + before);
                }
                history.add(e);
            }
        } catch (IllegalArgumentException e) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, "the master at " + address + " sent an invalid"
                    + " epoch history: " + e.getMessage());
        }
        return history;
    }

    /**
     * Compares this replica's epoch history with the master's. When the master asked for it, cuts the log back
     * to the last common point (durably: the store forces the cut before this returns) and returns true;
     * otherwise adopts the master's history, since this log is about to continue the master's.
     */
    private boolean reconcile(List<EpochEntry> history, long start, String address)
            throws IOException, HaProtocolException {
        long localMax = store.getMaxPhyOffset();
        long common = EpochFile.lastCommonOffset(epochs.entries(), localMax, history, masterMaxOffset);
        if (common < 0) {
            throw new HaProtocolException(HaFrame.REFUSED_DIVERGED, "this replica's epoch history " + epochs.entries()
                    + " shares no term with the master's " + history + " at " + address + "; its log cannot be"
                    + " reconciled automatically: move its store aside so it copies from scratch");
        }
        if (start == HaFrame.ACCEPTED_TRUNCATE_FIRST) {
            if (common >= localMax) {
                throw new HaProtocolException(HaFrame.REFUSED_DIVERGED, "the master at " + address + " says this"
                        + " replica's log (end " + localMax + ") does not continue its own, but the epoch histories"
                        + " (local " + epochs.entries() + ", master " + history + ") agree up to that end; nothing"
                        + " was cut: move its store aside so it copies from scratch");
            }
            try {
                store.truncateTo(common);
            } catch (IllegalArgumentException e) {
                throw new HaProtocolException(HaFrame.REFUSED_DIVERGED, "cannot cut back to the last common point "
                        + common + " with the master at " + address + ": " + e.getMessage());
            }
            epochs.truncateAfter(common);
            log.warn("Replica {} id {} cut its commit log from {} back to {}, the last point it shares with master {}"
                    + " (epochs {} vs {}); the records after it were never confirmed", brokerName, brokerId,
                    localMax, common, address, epochs.entries(), history);
            return true;
        }
        epochs.replaceWith(history);
        return false;
    }

    private void sendHandshake(FrameChannel c) throws IOException {
        byte[] name = brokerName.getBytes(StandardCharsets.UTF_8);
        RecordFingerprint last = store.lastRecordFingerprint();
        long max = store.getMaxPhyOffset();
        epochs.truncateAfter(max); // terms adopted from a master but not copied yet say nothing about this log
        ByteBuffer body = ByteBuffer.allocate(HaFrame.HANDSHAKE_FIXED_SIZE + name.length);
        body.putLong(last == null ? 0 : max).putLong(brokerId).putLong(last == null ? -1 : last.offset())
                .putInt(last == null ? 0 : last.size()).putInt(last == null ? 0 : last.crc())
                .putShort((short) name.length).put(name).flip();
        c.write(HaFrame.TYPE_HANDSHAKE, epochs.lastEpoch(), body, null);
    }

    private void onFrame(FrameChannel c) throws IOException, HaProtocolException {
        long read = AckPathTiming.ENABLED ? System.nanoTime() : 0;
        if (c.type() == HaFrame.TYPE_REFUSED) {
            throw FrameChannel.refusal(c.body(), c.peer());
        }
        ByteBuffer body = c.body();
        if (c.type() != HaFrame.TYPE_TRANSFER || body.remaining() < HaFrame.TRANSFER_FIXED_SIZE) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, "expected a TRANSFER, got "
                    + HaFrame.typeName(c.type()) + " of " + body.remaining() + " bytes");
        }
        long offset = body.getLong(0);
        masterMaxOffset = body.getLong(8);
        masterConfirmOffset = body.getLong(16);
        lastTransferMillis = System.currentTimeMillis();
        body.position(HaFrame.TRANSFER_FIXED_SIZE);
        if (!body.hasRemaining()) {
            return; // heartbeat
        }
        long end = store.getMaxPhyOffset();
        if (offset != end && end != 0) { // an empty log takes any file start (the store checks that)
            throw new HaProtocolException(HaFrame.REFUSED_WRONG_OFFSET, "the master sent bytes for offset " + offset
                    + " but this slave's log ends at " + end);
        }
        // the master's senders wait for this ack, nobody for this replica's consume queues: ack, then dispatch
        ReplicaAppendResult result = store.appendCommitLogQuietly(offset, body);
        try {
            if (!result.ok()) {
                throw new HaProtocolException(HaFrame.REFUSED_APPEND_FAILED, result.error());
            }
            sendAck(c, result.nextOffset());
            if (AckPathTiming.ENABLED) {
                AckPathTiming.time(AckPathTiming.Stage.SLAVE_APPEND, System.nanoTime() - read);
            }
        } finally {
            store.announceAppend();
        }
    }

    private void sendAck(FrameChannel c, long offset) throws IOException {
        synchronized (ack) {
            ack.clear();
            ack.putLong(offset).flip();
            c.write(HaFrame.TYPE_ACK, HaFrame.CLASSIC_EPOCH, ack, null);
        }
        lastAckMillis = System.currentTimeMillis();
    }

    /** Heartbeat acks, and a master that sent nothing (not even a heartbeat) for too long is dropped. */
    private void tick() {
        FrameChannel c = channel;
        if (c == null || !connected) {
            return;
        }
        long now = System.currentTimeMillis();
        if (now - c.lastReadMillis() > config.getHaHousekeepingInterval()) {
            log.warn("Master {} sent nothing for {} ms; reconnecting", c.peer(), now - c.lastReadMillis());
            c.close();
            return;
        }
        if (now - lastAckMillis >= config.getHaSendHeartbeatInterval()) {
            try {
                sendAck(c, store.getMaxPhyOffset());
            } catch (IOException e) {
                c.close();
            }
        }
    }
}
