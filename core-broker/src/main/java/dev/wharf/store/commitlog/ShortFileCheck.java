package dev.wharf.store.commitlog;

import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.ReadOnlyMapping;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells a truncated commit-log file from one written with a smaller {@code mappedFileSizeCommitLog}: before
 * the files are mapped (mapping extends a short file), each short file's records are walked by their sizes;
 * one that ends with a blank record reaching exactly its end was complete at its own size, so the store was
 * written with another file size and must not be "recovered" into this one. Stateless.
 */
final class ShortFileCheck {

    private ShortFileCheck() {
    }

    /** @throws IOException naming the file and the size to start with, when a short file is complete */
    static void rejectOtherFileSize(Path dir, int fileSize) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                if (!MappedFile.isStoreFileName(p.getFileName().toString()) || !Files.isRegularFile(p)) {
                    continue;
                }
                long size = Files.size(p);
                if (size >= MessageRecord.BLANK_RECORD_MIN_SIZE && size < fileSize && endsWithBlankRecord(p, size)) {
                    throw new IOException("Commit-log file " + p + " is " + size + " bytes and complete (it ends with"
                            + " the end-of-file record), but mappedFileSizeCommitLog is " + fileSize + ": the store was"
                            + " written with mappedFileSizeCommitLog=" + size + "; start with that setting.");
                }
            }
        }
    }

    private static boolean endsWithBlankRecord(Path p, long size) throws IOException {
        return ReadOnlyMapping.read(p, size, data -> {
            int limit = (int) size;
            int pos = 0;
            while (pos + MessageRecord.BLANK_RECORD_MIN_SIZE <= limit) {
                int total = data.getInt(pos + MessageRecord.TOTAL_SIZE_OFFSET);
                int magic = data.getInt(pos + MessageRecord.MAGIC_CODE_OFFSET);
                if (magic == MessageRecord.BLANK_MAGIC_CODE) {
                    return total == limit - pos;
                }
                if (magic != MessageRecord.MESSAGE_MAGIC_CODE || total < MessageRecord.BODY_OFFSET
                        || total > limit - pos) {
                    return false;
                }
                pos += total;
            }
            return false;
        });
    }
}
