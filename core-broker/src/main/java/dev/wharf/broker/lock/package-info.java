/** Queue locks of orderly consumption: one client of a group holds a queue, renewing the lock or losing it. */
package dev.wharf.broker.lock;
