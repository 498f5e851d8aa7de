/**
 * The broker an application runs inside itself when it names no broker URL: a NameServer and a broker on loopback,
 * with a persistent store, started and stopped with the application context.
 */
package dev.wharf.spring.boot.embedded;
