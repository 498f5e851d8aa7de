package dev.wharf.controller.state;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of a {@link LogCommand} (a Raft log entry) and of a {@link Query}. Big-endian; a string is a
 * 2-byte length and UTF-8 bytes (a length of 0xFFFF stands for null); a list of ids is a 2-byte count and 8 bytes per
 * id.
 *
 * <pre>
 *  0         1         2
 *  +---------+---------+--------------------------------------------------------------------+
 *  | version | type    | fields of the type                                                 |
 *  +---------+---------+--------------------------------------------------------------------+
 *
 *  type 1 REGISTER       cluster:str  brokerName:str  requestedId:i64  address:str  checkCode:str
 *  type 2 ELECT          brokerName:str  expectedMasterEpoch:i32  newMasterId:i64
 *  type 3 ALTER_SET      brokerName:str  masterId:i64  expectedMasterEpoch:i32  expectedSetEpoch:i32  ids:list
 *  type 4 MEMBER_ADDR    nodeId:str  address:str
 *  type 64 QUERY_GROUPS  brokerName:str (null = all)          (read-only, never in the log)
 * </pre>
 *
 * A new field is added at the end of its type with a new version; a reader refuses a version it does not know, so a
 * node never applies an entry it half understands.
 */
public final class CommandLayout {

    public static final byte VERSION = 1;
    public static final byte REGISTER = 1;
    public static final byte ELECT = 2;
    public static final byte ALTER_SYNC_STATE_SET = 3;
    public static final byte MEMBER_ADDRESS = 4;
    public static final byte QUERY_GROUPS = 64;

    /** Offsets of the fixed prefix. */
    public static final int VERSION_OFFSET = 0;
    public static final int TYPE_OFFSET = 1;
    public static final int FIELDS_OFFSET = 2;

    private static final int NULL_STRING = 0xFFFF;
    private static final int MAX_STRING_BYTES = 0xFFFE;
    private static final int MAX_IDS = 0xFFFF;

    private CommandLayout() {
    }

    /** A read-only question, answered by the leader after a linearizable read. */
    public record Query(String brokerName) {
    }

    public static byte[] encode(LogCommand command) {
        Writer w = new Writer();
        if (command instanceof LogCommand.Register r) {
            w.header(REGISTER).str(r.clusterName()).str(r.brokerName()).i64(r.requestedId()).str(r.address())
                    .str(r.checkCode());
        } else if (command instanceof LogCommand.Elect e) {
            w.header(ELECT).str(e.brokerName()).i32(e.expectedMasterEpoch()).i64(e.newMasterId());
        } else if (command instanceof LogCommand.AlterSyncStateSet a) {
            w.header(ALTER_SYNC_STATE_SET).str(a.brokerName()).i64(a.masterId()).i32(a.expectedMasterEpoch())
                    .i32(a.expectedSetEpoch()).ids(a.newSet());
        } else if (command instanceof LogCommand.MemberAddress m) {
            w.header(MEMBER_ADDRESS).str(m.nodeId()).str(m.address());
        } else {
            throw new IllegalArgumentException("not a controller command: " + command);
        }
        return w.toBytes();
    }

    public static byte[] encode(Query query) {
        return new Writer().header(QUERY_GROUPS).str(query.brokerName()).toBytes();
    }

    /**
     * @throws IllegalArgumentException naming what is wrong: unknown version or type, truncated fields, bytes left
     */
    public static LogCommand decodeCommand(ByteBuffer bytes) {
        Reader r = new Reader(bytes);
        byte type = r.header();
        LogCommand command = switch (type) {
            case REGISTER -> new LogCommand.Register(r.str(), r.str(), r.i64(), r.str(), r.str());
            case ELECT -> new LogCommand.Elect(r.str(), r.i32(), r.i64());
            case ALTER_SYNC_STATE_SET -> new LogCommand.AlterSyncStateSet(r.str(), r.i64(), r.i32(), r.i32(), r.ids());
            case MEMBER_ADDRESS -> new LogCommand.MemberAddress(r.str(), r.str());
            default -> throw new IllegalArgumentException("unknown controller command type " + type
                    + " (a newer controller wrote it? upgrade every controller node to the same version)");
        };
        r.end();
        return command;
    }

    /** @throws IllegalArgumentException when the bytes are not a query */
    public static Query decodeQuery(ByteBuffer bytes) {
        Reader r = new Reader(bytes);
        byte type = r.header();
        if (type != QUERY_GROUPS) {
            throw new IllegalArgumentException("unknown controller query type " + type);
        }
        Query q = new Query(r.str());
        r.end();
        return q;
    }

    private static final class Writer {
        private ByteBuffer buf = ByteBuffer.allocate(128);

        Writer header(byte type) {
            ensure(2);
            buf.put(VERSION).put(type);
            return this;
        }

        Writer str(String s) {
            if (s == null) {
                ensure(2);
                buf.putShort((short) NULL_STRING);
                return this;
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            if (b.length > MAX_STRING_BYTES) {
                throw new IllegalArgumentException("a controller command string is limited to " + MAX_STRING_BYTES
                        + " bytes, got " + b.length);
            }
            ensure(2 + b.length);
            buf.putShort((short) b.length).put(b);
            return this;
        }

        Writer i32(int v) {
            ensure(4);
            buf.putInt(v);
            return this;
        }

        Writer i64(long v) {
            ensure(8);
            buf.putLong(v);
            return this;
        }

        Writer ids(List<Long> ids) {
            if (ids.size() > MAX_IDS) {
                throw new IllegalArgumentException("a sync-state set is limited to " + MAX_IDS + " members");
            }
            ensure(2 + 8 * ids.size());
            buf.putShort((short) ids.size());
            ids.forEach(buf::putLong);
            return this;
        }

        private void ensure(int n) {
            if (buf.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n));
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
        }

        byte[] toBytes() {
            byte[] out = new byte[buf.position()];
            buf.flip();
            buf.get(out);
            return out;
        }
    }

    private static final class Reader {
        private final ByteBuffer buf;

        Reader(ByteBuffer buf) {
            this.buf = buf.slice();
        }

        byte header() {
            if (buf.remaining() < FIELDS_OFFSET) {
                throw new IllegalArgumentException("a controller command needs at least " + FIELDS_OFFSET
                        + " bytes, got " + buf.remaining());
            }
            byte version = buf.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown controller command version " + version + " (this node reads "
                        + VERSION + "; upgrade every controller node to the same version)");
            }
            return buf.get();
        }

        String str() {
            try {
                int len = Short.toUnsignedInt(buf.getShort());
                if (len == NULL_STRING) {
                    return null;
                }
                byte[] b = new byte[len];
                buf.get(b);
                return new String(b, StandardCharsets.UTF_8);
            } catch (BufferUnderflowException e) {
                throw truncated();
            }
        }

        int i32() {
            try {
                return buf.getInt();
            } catch (BufferUnderflowException e) {
                throw truncated();
            }
        }

        long i64() {
            try {
                return buf.getLong();
            } catch (BufferUnderflowException e) {
                throw truncated();
            }
        }

        List<Long> ids() {
            try {
                int n = Short.toUnsignedInt(buf.getShort());
                List<Long> ids = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    ids.add(buf.getLong());
                }
                return ids;
            } catch (BufferUnderflowException e) {
                throw truncated();
            }
        }

        void end() {
            if (buf.hasRemaining()) {
                throw new IllegalArgumentException("a controller command has " + buf.remaining()
                        + " bytes after its last field");
            }
        }

        private static IllegalArgumentException truncated() {
            return new IllegalArgumentException("a controller command ends in the middle of a field (truncated)");
        }
    }
}
