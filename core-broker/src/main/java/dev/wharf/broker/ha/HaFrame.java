package dev.wharf.broker.ha;

import java.nio.ByteBuffer;

/**
 * Layout of the frames on the HA port (plain TCP, not the remoting protocol). All integers are big-endian.
 * Every frame is a 16-byte header and a body of BODYLENGTH bytes:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                MAGIC (4) 0x57484131 ("WHA1")                  |  0
 * |                          TYPE (4)                             |  4
 * |                       BODYLENGTH (4)                          |  8
 * |                          EPOCH (4)                            | 12
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * HANDSHAKE, slave to master, first frame of a connection:
 * |                 SLAVEMAXOFFSET (8): end of its log            |  0
 * |                        BROKERID (8)                           |  8
 * |       LASTRECORDOFFSET (8): -1 when the slave's log is empty  | 16
 * |                    LASTRECORDSIZE (4)                         | 24
 * |       LASTRECORDCRC (4): see RecordFingerprint                | 28
 * |  NAMELENGTH (2)  |   BROKERNAME (NAMELENGTH bytes, UTF-8)     | 32
 *
 * ACCEPTED, master to slave, answers a valid HANDSHAKE:
 * |                   MASTERMAXOFFSET (8)                         |  0
 * |   STARTOFFSET (8): where the transfer begins; -1: truncate    |  8
 * |   then N = (BODYLENGTH - 16) / 12 entries of the master's     |
 * |   epoch history, oldest first (none in classic replication):  |
 * |                      ENTRYEPOCH (4)                           | 16 + 12i
 * |                   ENTRYSTARTOFFSET (8)                        | 20 + 12i
 *
 * REFUSED, either way, then the sender closes the connection:
 * |                          REASON (4)                           |  0
 * |          MESSAGE (BODYLENGTH - 4 bytes, UTF-8)                |  4
 *
 * TRANSFER, master to slave; with no DATA it is a heartbeat:
 * |         STARTOFFSET (8): commit-log offset of DATA            |  0
 * |                   MASTERMAXOFFSET (8)                         |  8
 * |                    CONFIRMOFFSET (8)                          | 16
 * |      DATA (BODYLENGTH - 24): whole commit-log records         | 24
 *
 * ACK, slave to master, after each append and every haSendHeartbeatInterval:
 * |                   SLAVEMAXOFFSET (8)                          |  0
 *
 * When the brokers authenticate (aclEnable), three frames come before the HANDSHAKE (see HaSecurity):
 * AUTH, slave to master, first frame:
 * |                    SLAVENONCE (16), random                    |  0
 * |  USERLENGTH (2)  |   USER (USERLENGTH bytes, UTF-8)           | 16
 * CHALLENGE, master to slave, answers AUTH:
 * |                   MASTERNONCE (16), random                    |  0
 * |  MASTERPROOF (32): HMAC-SHA256 with USER's key over both      | 16
 * |  nonces and the broker name: the master knows the user's key  |
 * PROOF, slave to master, once MASTERPROOF checked out; the HANDSHAKE follows:
 * |            TIMESTAMP (8): signing time, epoch millis          |  0
 * |  SLAVEPROOF (32): HMAC-SHA256 with the user's key over both   |  8
 * |  nonces, the broker name and TIMESTAMP                        |
 * </pre>
 *
 * EPOCH is the sender's term: a slave's HANDSHAKE carries the last epoch of its history, a master's frames its
 * current one. Classic replication runs in one term ({@link #CLASSIC_EPOCH}, no history). A master elected by a
 * controller has an epoch history; when a replica's log does not continue the master's (it is ahead or its last
 * record differs: an old master's unconfirmed tail) it answers ACCEPTED with STARTOFFSET -1 and its history,
 * the replica cuts its log back to the last common point of both histories, durably, and reconnects. DATA never starts or ends inside a
 * record; a blank end-of-file record travels as its 8-byte header (the replica fills the file).
 */
public final class HaFrame {

    public static final int MAGIC = 0x57484131;
    /** The epoch of classic master/slave replication (no elections). */
    public static final int CLASSIC_EPOCH = 0;

    public static final int HEADER_SIZE = 16;
    public static final int MAGIC_OFFSET = 0;
    public static final int TYPE_OFFSET = 4;
    public static final int BODY_LENGTH_OFFSET = 8;
    public static final int EPOCH_OFFSET = 12;

    public static final int TYPE_HANDSHAKE = 1;
    public static final int TYPE_ACCEPTED = 2;
    public static final int TYPE_REFUSED = 3;
    public static final int TYPE_TRANSFER = 4;
    public static final int TYPE_ACK = 5;
    public static final int TYPE_AUTH = 6;
    public static final int TYPE_CHALLENGE = 7;
    public static final int TYPE_PROOF = 8;

    /** Bytes of a random nonce in AUTH and CHALLENGE. */
    public static final int NONCE_SIZE = 16;
    /** Bytes of an HMAC-SHA256 proof. */
    public static final int PROOF_SIZE = 32;
    public static final int CHALLENGE_SIZE = NONCE_SIZE + PROOF_SIZE;
    public static final int PROOF_FRAME_SIZE = 8 + PROOF_SIZE;

    /** HANDSHAKE body, before the name. */
    public static final int HANDSHAKE_FIXED_SIZE = 34;
    public static final int HANDSHAKE_MAX_OFFSET = 0;
    public static final int HANDSHAKE_BROKER_ID = 8;
    public static final int HANDSHAKE_LAST_OFFSET = 16;
    public static final int HANDSHAKE_LAST_SIZE = 24;
    public static final int HANDSHAKE_LAST_CRC = 28;
    public static final int HANDSHAKE_NAME_LENGTH = 32;
    public static final int MAX_NAME_LENGTH = 255;

    public static final int ACCEPTED_SIZE = 16;
    /** ACCEPTED's STARTOFFSET telling the replica to cut its log back to the last common point first. */
    public static final long ACCEPTED_TRUNCATE_FIRST = -1;
    /** One epoch history entry after ACCEPTED's fixed part. */
    public static final int EPOCH_ENTRY_SIZE = 12;
    public static final int ACK_SIZE = 8;
    /** TRANSFER body before DATA. */
    public static final int TRANSFER_FIXED_SIZE = 24;
    /** Longest REFUSED message accepted. */
    public static final int MAX_REFUSAL_SIZE = 4 + 4096;

    /** REFUSED reasons. */
    public static final int REFUSED_BAD_FRAME = 1;
    public static final int REFUSED_WRONG_BROKER = 2;
    public static final int REFUSED_SLAVE_AHEAD = 3;
    public static final int REFUSED_DIVERGED = 4;
    public static final int REFUSED_TOO_FAR_BEHIND = 5;
    public static final int REFUSED_WRONG_OFFSET = 6;
    public static final int REFUSED_EPOCH = 7;
    public static final int REFUSED_APPEND_FAILED = 8;
    public static final int REFUSED_AUTHENTICATION = 9;
    public static final int REFUSED_PERMISSION = 10;
    public static final int REFUSED_TLS = 11;

    private HaFrame() {
    }

    /** Writes a frame header at the buffer's position (advancing it). */
    public static void putHeader(ByteBuffer buffer, int type, int bodyLength, int epoch) {
        buffer.putInt(MAGIC).putInt(type).putInt(bodyLength).putInt(epoch);
    }

    /** A name for a frame type, for error messages. */
    public static String typeName(int type) {
        return switch (type) {
            case TYPE_HANDSHAKE -> "HANDSHAKE";
            case TYPE_ACCEPTED -> "ACCEPTED";
            case TYPE_REFUSED -> "REFUSED";
            case TYPE_TRANSFER -> "TRANSFER";
            case TYPE_ACK -> "ACK";
            case TYPE_AUTH -> "AUTH";
            case TYPE_CHALLENGE -> "CHALLENGE";
            case TYPE_PROOF -> "PROOF";
            default -> "unknown type " + type;
        };
    }

    /** A name for a refusal reason, for logs. */
    public static String reasonName(int reason) {
        return switch (reason) {
            case REFUSED_BAD_FRAME -> "bad frame";
            case REFUSED_WRONG_BROKER -> "wrong broker";
            case REFUSED_SLAVE_AHEAD -> "slave ahead of master";
            case REFUSED_DIVERGED -> "logs diverge";
            case REFUSED_TOO_FAR_BEHIND -> "slave too far behind";
            case REFUSED_WRONG_OFFSET -> "wrong offset";
            case REFUSED_EPOCH -> "epoch mismatch";
            case REFUSED_APPEND_FAILED -> "append failed";
            case REFUSED_AUTHENTICATION -> "authentication failed";
            case REFUSED_PERMISSION -> "not authorized";
            case REFUSED_TLS -> "TLS required";
            default -> "reason " + reason;
        };
    }
}
