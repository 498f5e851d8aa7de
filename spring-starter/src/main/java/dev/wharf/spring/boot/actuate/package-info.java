/**
 * Actuator support: the {@code wharf} health indicator and Micrometer meters of messages, transactions and queues,
 * read through a client of their own ({@link dev.wharf.spring.boot.actuate.WharfBrokerClient}).
 */
package dev.wharf.spring.boot.actuate;
