/**
 * Memory-mapped files, the only code in Wharf that touches {@code MappedByteBuffer}.
 *
 * <p>On disk: a directory of equally sized files, each named by the global offset of its first byte as 20
 * zero-padded digits; together they form one continuous byte log ({@link dev.wharf.store.file.MappedFileQueue}).
 * The bytes' meaning belongs to the owners (commit log, consume queues). A {@link dev.wharf.store.file.MappedFile}
 * has one appender at a time, any number of concurrent readers (views below the write position) and a
 * flusher; views are reference-counted ({@link dev.wharf.store.file.SelectMappedBufferResult}) so a file is never
 * unmapped under a reader.
 */
package dev.wharf.store.file;
