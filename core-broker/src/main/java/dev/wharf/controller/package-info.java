/**
 * The controller: decides, for every broker name, which replica is master, and fails a dead master over to an in-sync
 * replica. A replicated state machine on Apache Ratis holds the masters, epochs and sync-state sets
 * ({@link dev.wharf.controller.state}); the leader node keeps broker liveness and decides elections
 * ({@link dev.wharf.controller.elect}); brokers talk to it with {@link dev.wharf.controller.client.ControllerClient}.
 * Uses protocol, remoting and common; never the store, the broker, the NameServer or the client packages (an ArchUnit
 * rule keeps it so): brokers and NameServers depend on the controller, not the other way round.
 */
package dev.wharf.controller;
