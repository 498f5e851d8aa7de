/**
 * The checker: reads a run's ledger back and judges it (lost, phantom, duplicated and reordered messages, reused
 * queue offsets, split brain, failover time), then prints the summary table and the verdict.
 */
package dev.wharf.chaos.check;
