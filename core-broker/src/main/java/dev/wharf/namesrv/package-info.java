/**
 * The NameServer: a stateless route registry. Brokers register with every NameServer every 30 s; clients ask any
 * of them for topic routes. Routes are rebuilt from registrations alone, so NameServers never talk to each other.
 */
package dev.wharf.namesrv;
