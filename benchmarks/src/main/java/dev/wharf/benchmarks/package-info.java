/** Runnable measurements of Wharf's store against the raw bandwidth of the disk it runs on. */
package dev.wharf.benchmarks;
