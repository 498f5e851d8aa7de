package dev.wharf.common.message;

/**
 * Bits of the SYSFLAG field of a stored message. The low eleven bits mean what they mean to RocketMQ's clients, which
 * read the stored records as Wharf hands them out; Wharf's own bits sit above them.
 *
 * <pre>
 *  bit  0      COMPRESSED              body is compressed; bits 8-10 say with what
 *  bit  1      MULTI_TAGS
 *  bits 2-3    transaction type        not / prepared / commit / rollback
 *  bit  4      born host is IPv6       (RocketMQ's; Wharf records IPv4 hosts only, never set)
 *  bit  5      store host is IPv6      (RocketMQ's; never set)
 *  bit  6      need unwrap             (RocketMQ's batch consume queue; never set)
 *  bit  7      inner batch             (RocketMQ's batch consume queue; never set)
 *  bits 8-10   compression type        0 = unspecified (zlib), 1 = LZ4, 2 = ZSTD, 3 = zlib
 *  bit  28     INNER_BATCH_CONTINUES   Wharf's store: more records of the same atomic batch follow
 * </pre>
 */
public final class MessageSysFlag {

    /**
     * The body is compressed with the codec of {@link #compressionType}: zlib when the type bits are 0 (Wharf's own
     * client and RocketMQ 4.x send that) or {@link #COMPRESSION_ZLIB} (RocketMQ 5.x clients).
     */
    public static final int COMPRESSED = 0x1;
    /** The TAGS property holds several tags. */
    public static final int MULTI_TAGS = 0x2;

    /** The two transaction bits (mask). */
    public static final int TRANSACTION_TYPE_MASK = 0xC;
    public static final int TRANSACTION_NOT_TYPE = 0x0;
    public static final int TRANSACTION_PREPARED_TYPE = 0x4;
    public static final int TRANSACTION_COMMIT_TYPE = 0x8;
    public static final int TRANSACTION_ROLLBACK_TYPE = 0xC;

    /** The born host field holds an IPv6 address (RocketMQ's bit; Wharf's records hold IPv4 hosts). */
    public static final int BORN_HOST_V6 = 0x10;
    /** The store host field holds an IPv6 address (RocketMQ's bit; Wharf's records hold IPv4 hosts). */
    public static final int STORE_HOST_V6 = 0x20;
    /** RocketMQ's batch consume queue bits (need unwrap, inner batch); Wharf does not keep such queues. */
    public static final int ROCKETMQ_BATCH_CQ_MASK = 0x40 | 0x80;

    /** The three bits naming the compression codec of a {@link #COMPRESSED} body (RocketMQ 5.x). */
    public static final int COMPRESSION_TYPE_MASK = 0x700;
    /** Compression type bits of LZ4 (RocketMQ 5.x); Wharf neither writes nor accepts it. */
    public static final int COMPRESSION_LZ4 = 0x100;
    /** Compression type bits of Zstandard (RocketMQ 5.x); Wharf neither writes nor accepts it. */
    public static final int COMPRESSION_ZSTD = 0x200;
    /** Compression type bits of zlib, written by RocketMQ 5.x clients. Type 0 also means zlib. */
    public static final int COMPRESSION_ZLIB = 0x300;

    /**
     * Set by the store on every record of an atomic batch except the last: the batch is valid, and visible to
     * readers, only once the record without this bit that closes it is. Never taken from a producer. It lies
     * above every bit RocketMQ defines, so a RocketMQ client reading the record ignores it (it once was 0x100,
     * which RocketMQ 5.x reads as a compression type).
     */
    public static final int INNER_BATCH_CONTINUES = 0x1000_0000;

    /**
     * The bits a producer may set on a message: compression (flag and type), multiple tags and the transaction
     * type. The host and batch-queue bits describe a record's layout, which is the broker's to choose.
     */
    public static final int PRODUCER_BITS = COMPRESSED | MULTI_TAGS | TRANSACTION_TYPE_MASK | COMPRESSION_TYPE_MASK;

    private MessageSysFlag() {
    }

    public static int transactionType(int sysFlag) {
        return sysFlag & TRANSACTION_TYPE_MASK;
    }

    public static int withTransactionType(int sysFlag, int type) {
        return (sysFlag & ~TRANSACTION_TYPE_MASK) | type;
    }

    /** The compression type bits ({@code sysFlag & COMPRESSION_TYPE_MASK}). */
    public static int compressionType(int sysFlag) {
        return sysFlag & COMPRESSION_TYPE_MASK;
    }

    /** Whether the body is compressed with zlib (compressed, with type bits 0 or zlib's). */
    public static boolean isZlibCompressed(int sysFlag) {
        int type = compressionType(sysFlag);
        return (sysFlag & COMPRESSED) != 0 && (type == 0 || type == COMPRESSION_ZLIB);
    }

    /** The flag of a body after it was inflated: neither the compressed bit nor a compression type. */
    public static int withoutCompression(int sysFlag) {
        return sysFlag & ~(COMPRESSED | COMPRESSION_TYPE_MASK);
    }

    /** The codec's name for messages: "zlib", "LZ4", "ZSTD" or "unknown (n)". */
    public static String compressionName(int sysFlag) {
        return switch (compressionType(sysFlag)) {
            case 0, COMPRESSION_ZLIB -> "zlib";
            case COMPRESSION_LZ4 -> "LZ4";
            case COMPRESSION_ZSTD -> "ZSTD";
            default -> "unknown (" + (compressionType(sysFlag) >> 8) + ")";
        };
    }

    /** Whether a record is followed by more records of the same atomic batch. */
    public static boolean batchContinues(int sysFlag) {
        return (sysFlag & INNER_BATCH_CONTINUES) != 0;
    }
}
