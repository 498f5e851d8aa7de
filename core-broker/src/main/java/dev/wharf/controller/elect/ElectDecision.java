package dev.wharf.controller.elect;

/**
 * What the policy decided. {@link Kind#NEW_MASTER} names the broker to write as master; {@link Kind#KEEP_MASTER} means
 * the current master stays (it is alive); {@link Kind#NO_CANDIDATE} means nobody may become master; {@link Kind#REFUSED}
 * carries a response code and a sentence for a request that cannot be granted (a designated broker out of sync).
 */
public record ElectDecision(Kind kind, long brokerId, int refusalCode, String reason) {

    public enum Kind { NEW_MASTER, KEEP_MASTER, NO_CANDIDATE, REFUSED }

    static ElectDecision newMaster(long brokerId, String reason) {
        return new ElectDecision(Kind.NEW_MASTER, brokerId, 0, reason);
    }

    static ElectDecision keep(long brokerId) {
        return new ElectDecision(Kind.KEEP_MASTER, brokerId, 0, "the master " + brokerId + " is alive");
    }

    static ElectDecision noCandidate(String reason) {
        return new ElectDecision(Kind.NO_CANDIDATE, -1, 0, reason);
    }

    static ElectDecision refused(int code, String reason) {
        return new ElectDecision(Kind.REFUSED, -1, code, reason);
    }
}
