/**
 * The clients of a chaos run: producers that write every send attempt to the ledger, consumers that write every
 * delivery, and the sampler of who claims to be master.
 */
package dev.wharf.chaos.workload;
