/**
 * Who is alive and who may become master. Liveness lives in the controller leader's memory only (heartbeats are not
 * written to the Raft log: they come every half second from every broker and would cost a replicated, synced write each);
 * a new leader re-learns it from the heartbeats during one heartbeat timeout before it lets a master count as dead.
 * The election policy is a pure function of the replicated group state and this liveness view.
 */
package dev.wharf.controller.elect;
