/**
 * Routing state of the client, free of I/O: the NameServer address list with its failover order, the queues a
 * route offers for publishing and subscribing, round-robin queue choice and the latency fault tolerance that
 * steers sends away from brokers that just failed or were slow, and which broker of a group (master or slave) a
 * queue is read from ({@link dev.wharf.client.route.ReadSelector}).
 */
package dev.wharf.client.route;
