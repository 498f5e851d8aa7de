/**
 * The controller's replicated state: per broker name the master, its epoch, the sync-state set with its epoch and the
 * registered replicas; the commands that change it (the Raft log entries, see {@link dev.wharf.controller.state.CommandLayout});
 * the Ratis state machine that applies them and snapshots the state. Everything here is deterministic: the same log
 * gives the same state on every node. Liveness is not here (it lives in the leader's memory, see
 * {@link dev.wharf.controller.elect}).
 */
package dev.wharf.controller.state;
