/**
 * Small concurrency helpers: background service threads, named thread factories, and a rate-limited logger for
 * paths a peer can drive (one line per kind of event per interval).
 */
package dev.wharf.common.util;
