/**
 * Runnable measurements: Wharf's store against the raw bandwidth of the disk it runs on
 * ({@code StoreBenchmark}), scheduled-delivery lateness end to end ({@code ScheduleBenchmark}), and transactional
 * sends against plain sends over a real broker ({@code TransactionBenchmark}).
 */
package dev.wharf.benchmarks;
