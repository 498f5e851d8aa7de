/**
 * Master/slave replication of a broker group: a slave copies its master's commit log byte for byte over a
 * TCP stream (the HA port, framed as in {@link dev.wharf.broker.ha.HaFrame}; TLS and a challenge-response with
 * the group's credential when configured, see {@link dev.wharf.broker.ha.HaSecurity}), and a SYNC_MASTER answers a
 * send only once enough slaves hold it. Built on the store's {@link dev.wharf.store.ReplicableStore} seam: the
 * store reads and appends bytes, this package moves them and decides who is in sync.
 *
 * <p>Rooms: {@link dev.wharf.broker.ha.HaConfig} (settings), {@link dev.wharf.broker.ha.HaFrame} (wire layout),
 * master side {@link dev.wharf.broker.ha.HaServer} / {@link dev.wharf.broker.ha.HaConnection} /
 * {@link dev.wharf.broker.ha.ReplicaTracker} / {@link dev.wharf.broker.ha.ReplicaWaiters}, slave side
 * {@link dev.wharf.broker.ha.HaClient}, and {@link dev.wharf.broker.ha.HaService} wiring them for a role (and
 * switching it at runtime).
 *
 * <p>Controller mode: {@link dev.wharf.broker.ha.EpochFile} records which master term wrote which part of the log,
 * so a replica can cut a divergent tail back to the last point it shares with a newly elected master;
 * {@link dev.wharf.broker.ha.ControllerReplicas} follows the controller's elections and reports the sync-state set;
 * {@link dev.wharf.broker.ha.MasterLease} fences a master the controller stopped hearing from.
 */
package dev.wharf.broker.ha;
