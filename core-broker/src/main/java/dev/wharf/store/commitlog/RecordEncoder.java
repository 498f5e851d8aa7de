package dev.wharf.store.commitlog;

import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * Encodes messages into commit-log records in a reusable buffer, outside the put lock. Everything is final
 * except the three fields only the lock holder knows (QUEUEOFFSET, PHYSICALOFFSET, STORETIMESTAMP), which
 * {@link #patch} fills in just before the bytes are copied into the mapped file. The body CRC covers only the
 * body, so patching does not invalidate it.
 *
 * <p>Not thread-safe: one instance per thread (the commit log keeps them in a thread local). The buffer grows
 * on demand up to the maximum message size.
 */
public final class RecordEncoder {

    private static final int INITIAL_CAPACITY = 16 * 1024;

    private final int maxMessageSize;
    private final int maxBatchSize;
    private final CRC32 crc = new CRC32();
    private ByteBuffer buffer = ByteBuffer.allocate(INITIAL_CAPACITY);

    // per record of the current batch
    private int count;
    private int[] starts = new int[4];
    private String[] topics = new String[4];
    private int[] queueIds = new int[4];
    private boolean[] consumesQueueOffset = new boolean[4];
    private String errorMessage;

    public RecordEncoder(int maxMessageSize) {
        this(maxMessageSize, maxMessageSize);
    }

    /**
     * @param maxMessageSize largest record
     * @param maxBatchSize   largest batch of records (at least {@code maxMessageSize})
     */
    public RecordEncoder(int maxMessageSize, int maxBatchSize) {
        this.maxMessageSize = maxMessageSize;
        this.maxBatchSize = Math.max(maxMessageSize, maxBatchSize);
    }

    /** Starts a new batch (or single record). */
    public void reset() {
        if (buffer.capacity() > maxMessageSize) {
            // a large batch (a big transaction) grew the buffer past any single message: do not keep that per thread
            buffer = ByteBuffer.allocate(INITIAL_CAPACITY);
        }
        buffer.clear();
        count = 0;
        errorMessage = null;
    }

    /**
     * Appends one record for {@code msg} to the current batch.
     *
     * @param properties the encoded properties string ({@code key\u0001value\u0002...}), already checked for
     *                   separators in keys and values
     * @return {@link AppendStatus#PUT_OK} when encoded, else the reason ({@link #errorMessage()} says more)
     */
    public AppendStatus add(MessageExt msg, String properties) {
        String topic = msg.getTopic();
        String topicError = TopicValidator.check(topic);
        if (topicError != null) {
            return fail(AppendStatus.MESSAGE_ILLEGAL, topicError);
        }
        if (msg.getQueueId() < 0) {
            return fail(AppendStatus.MESSAGE_ILLEGAL,
                    "The queue id " + msg.getQueueId() + " is negative; use a queue id of 0 or more.");
        }
        byte[] body = msg.getBody();
        int bodyLength = body == null ? 0 : body.length;
        int topicLength = topic.length(); // TopicValidator allows ASCII only
        int propertiesLength = properties == null ? 0 : utf8Length(properties);
        if (propertiesLength > MessageRecord.MAX_PROPERTIES_LENGTH) {
            return fail(AppendStatus.PROPERTIES_SIZE_EXCEEDED, "The message properties take " + propertiesLength
                    + " bytes; the limit is " + MessageRecord.MAX_PROPERTIES_LENGTH + " bytes. Use fewer or shorter properties.");
        }
        long totalSize = (long) MessageRecord.totalSize(bodyLength, topicLength, propertiesLength);
        if (totalSize > maxMessageSize) {
            return fail(AppendStatus.MESSAGE_SIZE_EXCEEDED, "The message takes " + totalSize
                    + " bytes stored (body " + bodyLength + " bytes); the maximum message size is " + maxMessageSize
                    + " bytes. Send a smaller body or raise maxMessageSize.");
        }
        if (buffer.position() + totalSize > maxBatchSize) {
            return fail(AppendStatus.MESSAGE_SIZE_EXCEEDED, "The batch takes more than " + maxBatchSize
                    + " bytes stored, the most one batch may take; send it in smaller batches.");
        }
        ensureCapacity((int) totalSize);
        int start = buffer.position();
        remember(start, topic, msg.getQueueId(), msg.getSysFlag());

        crc.reset();
        if (bodyLength > 0) {
            crc.update(body, 0, bodyLength);
        }
        ByteBuffer b = buffer;
        b.putInt((int) totalSize);
        b.putInt(MessageRecord.MESSAGE_MAGIC_CODE);
        b.putInt(bodyLength == 0 ? 0 : (int) crc.getValue());
        b.putInt(msg.getQueueId());
        b.putInt(msg.getFlag());
        b.putLong(0L); // QUEUEOFFSET, patched under the lock
        b.putLong(0L); // PHYSICALOFFSET, patched under the lock
        // the batch bit is the store's own: a producer's or a re-put record's is dropped, the commit log sets it
        b.putInt(msg.getSysFlag() & ~MessageSysFlag.INNER_BATCH_CONTINUES);
        b.putLong(msg.getBornTimestamp());
        b.putLong(msg.getBornHost());
        b.putLong(0L); // STORETIMESTAMP, patched under the lock
        b.putLong(msg.getStoreHost());
        b.putInt(msg.getReconsumeTimes());
        b.putLong(msg.getPreparedTransactionOffset());
        b.putInt(bodyLength);
        if (bodyLength > 0) {
            b.put(body, 0, bodyLength);
        }
        b.put((byte) topicLength);
        for (int i = 0; i < topicLength; i++) {
            b.put((byte) topic.charAt(i));
        }
        b.putShort((short) propertiesLength);
        if (propertiesLength > 0) {
            writeUtf8(b, properties);
        }
        return AppendStatus.PUT_OK;
    }

    /** The encoded batch, position 0 to limit; valid until the next {@link #reset()}. */
    public ByteBuffer encoded() {
        ByteBuffer view = buffer.duplicate();
        view.flip();
        return view;
    }

    public int encodedSize() {
        return buffer.position();
    }

    public int count() {
        return count;
    }

    public int recordStart(int index) {
        return starts[index];
    }

    public String topic(int index) {
        return topics[index];
    }

    public int queueId(int index) {
        return queueIds[index];
    }

    /** Whether the record takes a consume-queue offset (prepared and rolled-back records do not). */
    public boolean consumesQueueOffset(int index) {
        return consumesQueueOffset[index];
    }

    public String errorMessage() {
        return errorMessage;
    }

    /** Fills in the fields only the lock holder knows for record {@code index}. */
    public void patch(int index, long queueOffset, long physicalOffset, long storeTimestamp) {
        int start = starts[index];
        buffer.putLong(start + MessageRecord.QUEUE_OFFSET_OFFSET, queueOffset);
        buffer.putLong(start + MessageRecord.PHYSICAL_OFFSET_OFFSET, physicalOffset);
        buffer.putLong(start + MessageRecord.STORE_TIMESTAMP_OFFSET, storeTimestamp);
    }

    /** Marks record {@code index} as followed by more records of the same atomic batch. */
    public void markBatchContinues(int index) {
        int at = starts[index] + MessageRecord.SYS_FLAG_OFFSET;
        buffer.putInt(at, buffer.getInt(at) | MessageSysFlag.INNER_BATCH_CONTINUES);
    }

    /** The raw buffer holding the batch from 0 to {@link #encodedSize()} (for the single copy into the file). */
    ByteBuffer rawBuffer() {
        return buffer;
    }

    private AppendStatus fail(AppendStatus status, String message) {
        errorMessage = message;
        return status;
    }

    private void remember(int start, String topic, int queueId, int sysFlag) {
        if (count == starts.length) {
            int n = count * 2;
            starts = java.util.Arrays.copyOf(starts, n);
            topics = java.util.Arrays.copyOf(topics, n);
            queueIds = java.util.Arrays.copyOf(queueIds, n);
            consumesQueueOffset = java.util.Arrays.copyOf(consumesQueueOffset, n);
        }
        int type = MessageSysFlag.transactionType(sysFlag);
        starts[count] = start;
        topics[count] = topic;
        queueIds[count] = queueId;
        consumesQueueOffset[count] = type == MessageSysFlag.TRANSACTION_NOT_TYPE
                || type == MessageSysFlag.TRANSACTION_COMMIT_TYPE;
        count++;
    }

    private void ensureCapacity(int extra) {
        if (buffer.remaining() >= extra) {
            return;
        }
        int needed = buffer.position() + extra;
        int capacity = Math.max(needed, Math.min(maxBatchSize, buffer.capacity() * 2));
        ByteBuffer bigger = ByteBuffer.allocate(capacity);
        buffer.flip();
        bigger.put(buffer);
        buffer = bigger;
    }

    /** UTF-8 length as {@code String.getBytes(UTF_8)} would produce (unpaired surrogates become '?'). */
    static int utf8Length(String s) {
        int length = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                length++;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                length += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                length++;
            } else {
                length += 3;
            }
        }
        return length;
    }

    private static void writeUtf8(ByteBuffer b, String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                b.put((byte) c);
            } else if (c < 0x800) {
                b.put((byte) (0xC0 | (c >> 6)));
                b.put((byte) (0x80 | (c & 0x3F)));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                b.put((byte) (0xF0 | (cp >> 18)));
                b.put((byte) (0x80 | ((cp >> 12) & 0x3F)));
                b.put((byte) (0x80 | ((cp >> 6) & 0x3F)));
                b.put((byte) (0x80 | (cp & 0x3F)));
            } else if (Character.isSurrogate(c)) {
                b.put((byte) '?');
            } else {
                b.put((byte) (0xE0 | (c >> 12)));
                b.put((byte) (0x80 | ((c >> 6) & 0x3F)));
                b.put((byte) (0x80 | (c & 0x3F)));
            }
        }
    }
}
