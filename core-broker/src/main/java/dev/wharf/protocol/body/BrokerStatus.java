package dev.wharf.protocol.body;

import java.util.List;

/**
 * GET_BROKER_STATUS answer: what an operator's overview shows of one broker beyond {@link BrokerRuntime} — the
 * release it runs, its disk and the thresholds that act on it, and the work it holds back (scheduled messages per
 * delay level, open transactions). Levels are read when asked; nothing here is kept for the answer.
 *
 * @param version                    the Wharf release the broker runs ("(development build)" when unknown)
 * @param bootTimestamp              when the broker started (epoch ms)
 * @param storePath                  the store's root folder on the broker's machine
 * @param commitLogBytes             bytes the commit log holds (its first kept byte to its end)
 * @param diskTotalBytes             size of the file system holding the store, -1 when unknown
 * @param diskUsableBytes            space left on it, -1 when unknown
 * @param diskMaxUsedSpaceRatio      percent of disk use above which old commit-log files are deleted at once
 * @param diskSpaceWarningLevelRatio percent of disk use above which new messages are refused
 * @param writeRefusal               why the store refuses writes now (disk full, dispatch stuck), null when it takes
 *                                   them
 * @param delayLevels                pending scheduled messages per delay level; empty where delivery does not run
 *                                   (a slave)
 * @param timerPending               messages with a delivery time (not a level) not yet delivered, -1 when unknown
 * @param scheduledDelivered         scheduled messages delivered to their topics since start
 * @param openTransactions           transactions with half messages and no commit or rollback yet
 * @param checkBacksSent             check-back requests sent to producers since start
 * @param checkRounds                rounds of the check-back service since start
 * @param timerEarliestDue           earliest time (epoch ms) the timer next delivers (or renews a long wait), -1 when
 *                                   nothing waits for a delivery time or it is not known; 0 from an older broker
 * @param oldestOpenTransactionAgeMillis how long the oldest open transaction's first half message has been stored,
 *                                   -1 when none is open; 0 from an older broker
 */
public record BrokerStatus(String version, long bootTimestamp, String storePath, long commitLogBytes,
                           long diskTotalBytes, long diskUsableBytes, int diskMaxUsedSpaceRatio,
                           int diskSpaceWarningLevelRatio, String writeRefusal, List<DelayLevel> delayLevels,
                           long timerPending, long scheduledDelivered, int openTransactions, long checkBacksSent,
                           long checkRounds, long timerEarliestDue, long oldestOpenTransactionAgeMillis) {

    /**
     * One delay level.
     *
     * @param level       1-based, as messages name it
     * @param delayMillis how long the level delays
     * @param pending     messages stored for the level and not yet delivered
     * @param oldestAgeMillis how long the oldest of them has been stored, -1 when none; 0 from an older broker
     */
    public record DelayLevel(int level, long delayMillis, long pending, long oldestAgeMillis) {
    }
}
