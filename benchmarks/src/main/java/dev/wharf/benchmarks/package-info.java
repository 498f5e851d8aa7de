/**
 * Runnable measurements: Wharf's store against the raw bandwidth of the disk it runs on
 * ({@code StoreBenchmark}), and scheduled-delivery lateness end to end ({@code ScheduleBenchmark}).
 */
package dev.wharf.benchmarks;
