package dev.wharf.common.message;

/**
 * Layout of a message record in the commit log, which is also the form in which pulled messages travel to
 * consumers (the broker sends the stored bytes as they are). All integers are big-endian.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         TOTALSIZE (4)                         |  0
 * |                  MAGICCODE (4) 0xDAA320A7                     |  4
 * |                         BODYCRC (4)                           |  8
 * |                         QUEUEID (4)                           | 12
 * |                           FLAG (4)                            | 16
 * |                       QUEUEOFFSET (8)                         | 20
 * |                     PHYSICALOFFSET (8)                        | 28
 * |                         SYSFLAG (4)                           | 36
 * |                      BORNTIMESTAMP (8)                        | 40
 * |             BORNHOST (8) = IPv4 (4) + port (4)                | 48
 * |                     STORETIMESTAMP (8)                        | 56
 * |             STOREHOST (8) = IPv4 (4) + port (4)               | 64
 * |                      RECONSUMETIMES (4)                       | 72
 * |                PREPAREDTRANSACTIONOFFSET (8)                  | 76
 * |                       BODYLENGTH (4)                          | 84
 * |                      BODY (BODYLENGTH)                        | 88
 * | TOPICLENGTH(1) |            TOPIC (TOPICLENGTH)               |
 * |   PROPERTIESLENGTH (2)  |   PROPERTIES (PROPERTIESLENGTH)     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * A file that cannot hold the next record ends with a blank record: TOTALSIZE = the rest of the file and
 * MAGICCODE = {@link #BLANK_MAGIC_CODE}; readers skip to the next file when they meet it.
 */
public final class MessageRecord {

    public static final int MESSAGE_MAGIC_CODE = 0xDAA320A7;
    public static final int BLANK_MAGIC_CODE = 0xCBD43194;

    public static final int TOTAL_SIZE_OFFSET = 0;
    public static final int MAGIC_CODE_OFFSET = 4;
    public static final int BODY_CRC_OFFSET = 8;
    public static final int QUEUE_ID_OFFSET = 12;
    public static final int FLAG_OFFSET = 16;
    public static final int QUEUE_OFFSET_OFFSET = 20;
    public static final int PHYSICAL_OFFSET_OFFSET = 28;
    public static final int SYS_FLAG_OFFSET = 36;
    public static final int BORN_TIMESTAMP_OFFSET = 40;
    public static final int BORN_HOST_OFFSET = 48;
    public static final int STORE_TIMESTAMP_OFFSET = 56;
    public static final int STORE_HOST_OFFSET = 64;
    public static final int RECONSUME_TIMES_OFFSET = 72;
    public static final int PREPARED_TRANSACTION_OFFSET_OFFSET = 76;
    public static final int BODY_LENGTH_OFFSET = 84;
    public static final int BODY_OFFSET = 88;

    /** Blank end-of-file record: total size and magic code only. */
    public static final int BLANK_RECORD_MIN_SIZE = 8;
    /** Longest properties string in bytes (PROPERTIESLENGTH is a signed short). */
    public static final int MAX_PROPERTIES_LENGTH = Short.MAX_VALUE;

    private MessageRecord() {
    }

    /** Record size for the given body, topic and properties byte lengths. */
    public static int totalSize(int bodyLength, int topicLength, int propertiesLength) {
        return BODY_OFFSET + bodyLength + 1 + topicLength + 2 + propertiesLength;
    }

    /** Offset of TOPICLENGTH within a record whose body has the given length. */
    public static int topicLengthOffset(int bodyLength) {
        return BODY_OFFSET + bodyLength;
    }

    /** Offset of PROPERTIESLENGTH within a record. */
    public static int propertiesLengthOffset(int bodyLength, int topicLength) {
        return BODY_OFFSET + bodyLength + 1 + topicLength;
    }
}
