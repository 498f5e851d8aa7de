/**
 * Small concurrency helpers: background service threads, named thread factories, a rate-limited logger for
 * paths a peer can drive (one line per kind of event per interval), and the I/O thread's read batch that work
 * shared by the requests of one read is deferred to.
 */
package dev.wharf.common.util;
