package dev.wharf.store.commitlog;

import dev.wharf.common.message.MessageRecord;
import java.nio.ByteBuffer;

/**
 * Finds where intact records start again after damaged bytes. Records are not aligned, so every byte position
 * is a candidate; a candidate counts only when its magic code, sizes, physical offset and body CRC all check
 * out (see {@link RecordValidator}), or when it is a blank record that ends exactly at the end of the file.
 * The physical-offset check makes a false match inside a damaged record practically impossible: the bytes
 * would have to hold their own file offset as well as a matching CRC. Stateless.
 */
public final class RecordResync {

    private static final byte MESSAGE_MAGIC_FIRST = (byte) (MessageRecord.MESSAGE_MAGIC_CODE >>> 24);
    private static final byte BLANK_MAGIC_FIRST = (byte) (MessageRecord.BLANK_MAGIC_CODE >>> 24);

    private RecordResync() {
    }

    /**
     * The first position after {@code from} where an intact record or a blank file end starts.
     *
     * @param buffer         the file's bytes (absolute positions)
     * @param from           position of the damaged record; the search starts one byte later
     * @param limit          end of the readable bytes of the file
     * @param fileFromOffset commit-log offset of position 0
     * @param searchAtLeast  the search does not give up on zeros before this position
     * @param maxZeroRun     past {@code searchAtLeast}, this many zero bytes in a row end the search (that is
     *                       the unwritten end of the log, not a hole); 0 searches to {@code limit}
     * @return the position, or -1 when nothing intact follows
     */
    public static int findNext(ByteBuffer buffer, int from, int limit, long fileFromOffset, int searchAtLeast,
            int maxZeroRun) {
        int zeroRun = 0;
        int lastCandidate = limit - MessageRecord.BLANK_RECORD_MIN_SIZE;
        for (int q = from + 1; q <= lastCandidate; q++) {
            byte b = buffer.get(q + MessageRecord.MAGIC_CODE_OFFSET);
            if (b == MESSAGE_MAGIC_FIRST || b == BLANK_MAGIC_FIRST) {
                int magic = buffer.getInt(q + MessageRecord.MAGIC_CODE_OFFSET);
                if (magic == MessageRecord.MESSAGE_MAGIC_CODE || magic == MessageRecord.BLANK_MAGIC_CODE) {
                    int size = RecordValidator.check(buffer, q, limit, fileFromOffset + q, true);
                    if (size > 0 || size == RecordValidator.BLANK) {
                        return q;
                    }
                }
            }
            if (buffer.get(q) == 0) {
                zeroRun++;
                if (maxZeroRun > 0 && zeroRun >= maxZeroRun && q >= searchAtLeast) {
                    return -1;
                }
            } else {
                zeroRun = 0;
            }
        }
        return -1;
    }
}
