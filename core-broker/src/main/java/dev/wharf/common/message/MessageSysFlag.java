package dev.wharf.common.message;

/** Bits of the SYSFLAG field of a stored message. */
public final class MessageSysFlag {

    /** The body is deflate-compressed. */
    public static final int COMPRESSED = 0x1;
    /** The TAGS property holds several tags. */
    public static final int MULTI_TAGS = 0x2;

    /** The two transaction bits (mask). */
    public static final int TRANSACTION_TYPE_MASK = 0xC;
    public static final int TRANSACTION_NOT_TYPE = 0x0;
    public static final int TRANSACTION_PREPARED_TYPE = 0x4;
    public static final int TRANSACTION_COMMIT_TYPE = 0x8;
    public static final int TRANSACTION_ROLLBACK_TYPE = 0xC;

    /**
     * Set by the store on every record of an atomic batch except the last: the batch is valid, and visible to
     * readers, only once the record without this bit that closes it is. Never taken from a producer.
     */
    public static final int INNER_BATCH_CONTINUES = 0x100;

    private MessageSysFlag() {
    }

    public static int transactionType(int sysFlag) {
        return sysFlag & TRANSACTION_TYPE_MASK;
    }

    public static int withTransactionType(int sysFlag, int type) {
        return (sysFlag & ~TRANSACTION_TYPE_MASK) | type;
    }

    /** Whether a record is followed by more records of the same atomic batch. */
    public static boolean batchContinues(int sysFlag) {
        return (sysFlag & INNER_BATCH_CONTINUES) != 0;
    }
}
