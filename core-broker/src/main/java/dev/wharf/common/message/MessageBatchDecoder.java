package dev.wharf.common.message;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes a batch of records sent back to back (a pull, pop or query result) record by record, so one bad
 * record costs that record and not its neighbours. A record is bad when its lengths do not add up, its body
 * fails its CRC, or its body cannot be inflated; it is skipped by its size and described in
 * {@link Result#problems()}. When the size field or magic code itself is broken, the records after it cannot
 * be located: decoding stops there and the problem says so, with the number of bytes left unread.
 * Stateless; thread-safe.
 */
public final class MessageBatchDecoder {

    private static final int MIN_RECORD_SIZE = MessageRecord.totalSize(0, 0, 0);

    /**
     * What a batch held.
     *
     * @param messages the intact messages, in batch order
     * @param problems  one description per bad record (and one for an unreadable rest); empty when all was well
     * @param positions for each message, its record's position in the batch (0-based), so that data sent per
     *                  record beside the batch (a pop's delivery counts) can be matched with the records kept
     */
    public record Result(List<MessageExt> messages, List<String> problems, int[] positions) {

        public boolean isClean() {
            return problems.isEmpty();
        }
    }

    private MessageBatchDecoder() {
    }

    /**
     * Decodes every record from the buffer's position to its limit.
     *
     * @param readBody whether to copy bodies
     * @param inflate  whether to decompress compressed bodies
     */
    public static Result decode(ByteBuffer buffer, boolean readBody, boolean inflate) {
        List<MessageExt> messages = new ArrayList<>();
        List<String> problems = new ArrayList<>(0);
        int[] positions = new int[8];
        int index = 0;
        while (buffer.hasRemaining()) {
            int start = buffer.position();
            int remaining = buffer.remaining();
            if (remaining < MessageRecord.BODY_OFFSET) {
                problems.add("record " + index + " at byte " + start + ": only " + remaining
                        + " bytes left, less than a record header; they were not decoded");
                break;
            }
            int total = buffer.getInt(start + MessageRecord.TOTAL_SIZE_OFFSET);
            int magic = buffer.getInt(start + MessageRecord.MAGIC_CODE_OFFSET);
            if (magic != MessageRecord.MESSAGE_MAGIC_CODE || total < MIN_RECORD_SIZE || total > remaining) {
                problems.add(brokenFrame(index, start, total, magic, remaining));
                break;
            }
            String problem = decodeOne(buffer, start, total, readBody, inflate, messages);
            if (problem == null) {
                if (messages.size() > positions.length) {
                    positions = Arrays.copyOf(positions, positions.length * 2);
                }
                positions[messages.size() - 1] = index;
            } else {
                int next = start + total;
                if (next < buffer.limit() && !startsRecord(buffer, next)) {
                    // the lengths inside did not add up and nothing starts after it: the size is what broke
                    problems.add(brokenFrame(index, start, total, magic, remaining));
                    break;
                }
                problems.add("record " + index + " at byte " + start + " (" + total + " bytes): " + problem
                        + "; skipped, the records after it were decoded");
            }
            buffer.position(start + total);
            index++;
        }
        return new Result(messages, problems, Arrays.copyOf(positions, messages.size()));
    }

    private static String brokenFrame(int index, int start, int total, int magic, int remaining) {
        return "record " + index + " at byte " + start + ": its size field (" + total + ") or magic code (0x"
                + Integer.toHexString(magic) + ") is broken, so the records after it cannot be located; the last "
                + remaining + " bytes of the batch were not decoded";
    }

    private static boolean startsRecord(ByteBuffer buffer, int at) {
        return buffer.limit() - at >= MessageRecord.BODY_OFFSET
                && buffer.getInt(at + MessageRecord.MAGIC_CODE_OFFSET) == MessageRecord.MESSAGE_MAGIC_CODE;
    }

    /** Decodes the record at {@code start} into {@code out}; the problem when it is bad, else null. */
    private static String decodeOne(ByteBuffer buffer, int start, int total, boolean readBody, boolean inflate,
            List<MessageExt> out) {
        int bodyLength = buffer.getInt(start + MessageRecord.BODY_LENGTH_OFFSET);
        if (bodyLength < 0 || MessageRecord.totalSize(bodyLength, 0, 0) > total) {
            return "body length " + bodyLength + " does not fit the record";
        }
        int crc = MessageDecoder.crc32(buffer, start + MessageRecord.BODY_OFFSET, bodyLength);
        if (crc != buffer.getInt(start + MessageRecord.BODY_CRC_OFFSET)) {
            return "body CRC mismatch (the body was damaged)";
        }
        ByteBuffer one = buffer.duplicate();
        one.limit(start + total).position(start);
        MessageExt msg;
        try {
            msg = MessageDecoder.decode(one, readBody, inflate);
        } catch (RuntimeException e) {
            return e.getMessage();
        }
        if (msg == null) {
            return "topic or properties lengths do not add up to the record size";
        }
        out.add(msg);
        return null;
    }
}
