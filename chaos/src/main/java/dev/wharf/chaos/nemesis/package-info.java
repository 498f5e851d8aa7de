/**
 * The nemesis: faults injected into the cluster's processes for a set time (kill -9 with restart, SIGSTOP and
 * SIGCONT, network partitions made of iptables rules on loopback), each healed before the next one, and the log
 * of what was done when.
 */
package dev.wharf.chaos.nemesis;
