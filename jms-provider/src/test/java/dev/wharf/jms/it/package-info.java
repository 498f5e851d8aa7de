/**
 * End-to-end tests of the provider against real brokers: an in-JVM {@code vm://} broker and a NameServer plus
 * broker on loopback reached through {@code wharf://127.0.0.1:port}; one test class per area of the
 * specification.
 */
package dev.wharf.jms.it;
