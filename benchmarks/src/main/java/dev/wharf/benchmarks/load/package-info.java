/**
 * The load tool: producer threads sending fixed-size messages and a push consumer against a running server (or
 * one the tool starts in a child JVM), reporting send TPS with latency percentiles and consume TPS with
 * end-to-end latency. Entry point: {@link dev.wharf.benchmarks.load.LoadTool}.
 */
package dev.wharf.benchmarks.load;
