/** Client integration tests against real in-JVM NameServers and brokers on loopback. */
package dev.wharf.client.it;
