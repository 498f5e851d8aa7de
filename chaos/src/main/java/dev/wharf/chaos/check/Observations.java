package dev.wharf.chaos.check;

import dev.wharf.chaos.nemesis.FaultEvent;
import java.util.List;
import java.util.Map;

/**
 * What the run saw besides the ledger: the faults, and the samples of who was master.
 *
 * @param controllerMode   whether the brokers failed over automatically
 * @param faults           every fault injected
 * @param epochConflicts   epochs in which the controllers named two different masters of one broker name
 * @param overlapRounds    sampling rounds in which two brokers of one name both answered with a master role
 * @param firstOverlap     the first such round, or null
 * @param epochsSeen       distinct master epochs seen per broker name (controller mode)
 * @param roleRounds       sampling rounds in all
 * @param offsetResets     pulls answered OFFSET_ILLEGAL
 */
public record Observations(boolean controllerMode, List<FaultEvent> faults, List<String> epochConflicts,
                           long overlapRounds, String firstOverlap, Map<String, Integer> epochsSeen,
                           long roleRounds, long offsetResets) {
}
