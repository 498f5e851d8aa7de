package dev.wharf.protocol.body;

/** Topic permission bits (RocketMQ's values). */
public final class TopicPerm {

    public static final int READ = 0x4;
    public static final int WRITE = 0x2;
    public static final int INHERIT = 0x1;

    private TopicPerm() {
    }

    public static String toString(int perm) {
        return ((perm & READ) != 0 ? "R" : "-") + ((perm & WRITE) != 0 ? "W" : "-") + ((perm & INHERIT) != 0 ? "X" : "-");
    }
}
