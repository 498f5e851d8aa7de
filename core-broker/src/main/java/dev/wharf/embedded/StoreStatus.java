package dev.wharf.embedded;

import java.nio.file.Path;

/**
 * What a health check needs to know of an embedded broker's store, read in one go so that a caller does not reach
 * into the store itself.
 *
 * @param storeDir              the store's root folder
 * @param running               whether the broker runs
 * @param diskMaxUsedSpaceRatio the disk use, in percent, above which the store deletes old messages early
 * @param storedMessages        messages stored since the start
 * @param failedWrites          writes the store refused since the start
 * @param takesWrites           whether the store takes writes now
 * @param condition             the store's condition ({@code UP} when it takes writes)
 * @param writeRefusal          why it refuses writes, or {@code null} when it takes them
 */
public record StoreStatus(Path storeDir, boolean running, int diskMaxUsedSpaceRatio, long storedMessages,
                          long failedWrites, boolean takesWrites, String condition, String writeRefusal) {
}
