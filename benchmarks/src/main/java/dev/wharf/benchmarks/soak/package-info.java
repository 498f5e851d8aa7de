/**
 * The soak tool: a broker in a child process on a small file system the tool mounts, under steady load for a
 * long time while {@code kill -9}, commit-log corruption and disk-full episodes are injected; every acknowledged
 * send and every delivery is recorded, and the end check accounts for each acknowledged message (delivered,
 * listed in the quarantine report, or lost). Entry point: {@link dev.wharf.benchmarks.soak.SoakTool}.
 */
package dev.wharf.benchmarks.soak;
