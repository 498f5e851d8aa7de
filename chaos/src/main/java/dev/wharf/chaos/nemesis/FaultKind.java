package dev.wharf.chaos.nemesis;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The faults the nemesis injects; the option names are the lower-case, dashed forms. */
public enum FaultKind {
    /** kill -9 of a broker group's current master; restarted when the fault ends. */
    KILL_MASTER(false, false),
    /** kill -9 of a slave; restarted when the fault ends. */
    KILL_SLAVE(false, false),
    /** kill -9 of the Raft leader of the controllers; restarted when the fault ends. Controller mode only. */
    KILL_CONTROLLER_LEADER(false, true),
    /** SIGSTOP of a current master; SIGCONT when the fault ends. */
    PAUSE_MASTER(false, false),
    /** SIGSTOP of a slave; SIGCONT when the fault ends. */
    PAUSE_SLAVE(false, false),
    /** A current master cut off from every other process: its group, the controllers, NameServers and clients. */
    PARTITION_MASTER(true, false),
    /**
     * A current master cut off from its group, the controllers and the NameServers while clients still reach it:
     * the split-brain case, where only a fence keeps it from acknowledging what a new master will not have.
     */
    PARTITION_MASTER_KEEP_CLIENTS(true, false),
    /** The controllers' Raft leader cut off from the other controllers and the brokers. Controller mode only. */
    PARTITION_CONTROLLER_LEADER(true, true),
    /**
     * SIGSTOP of the controllers' Raft leader; SIGCONT when the fault ends. Controller mode only. Unlike a kill, its
     * connections stay open and silent, so brokers must give up on it by timeout and find the new leader.
     */
    PAUSE_CONTROLLER_LEADER(false, true);

    private final boolean partition;
    private final boolean needsControllers;

    FaultKind(boolean partition, boolean needsControllers) {
        this.partition = partition;
        this.needsControllers = needsControllers;
    }

    public boolean isPartition() {
        return partition;
    }

    public boolean needsControllers() {
        return needsControllers;
    }

    public String optionName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses "kill-master,pause-slave"; "all" is every kind. */
    public static List<FaultKind> parseList(String text) {
        if (text.trim().equalsIgnoreCase("all")) {
            return List.of(values());
        }
        return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(FaultKind::parse)
                .distinct().toList();
    }

    static FaultKind parse(String name) {
        for (FaultKind k : values()) {
            if (k.optionName().equalsIgnoreCase(name) || k.name().equalsIgnoreCase(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown fault \"" + name + "\"; give a comma-separated list of "
                + Arrays.stream(values()).map(FaultKind::optionName).collect(Collectors.joining(", "))
                + " (or all)");
    }
}
