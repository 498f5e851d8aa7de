/**
 * Runnable measurements: Wharf's store against the raw bandwidth of the disk it runs on
 * ({@link dev.wharf.benchmarks.StoreBenchmark}), and transactional sends against plain sends over a real broker
 * ({@link dev.wharf.benchmarks.TransactionBenchmark}).
 */
package dev.wharf.benchmarks;
