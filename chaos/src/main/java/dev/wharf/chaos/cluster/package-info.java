/**
 * The cluster under test: server processes (NameServers, controllers, brokers) started from the Wharf server's
 * main class on loopback, each in its own folder and cgroup, with ports chosen before the first start so that a
 * restarted process keeps its address.
 */
package dev.wharf.chaos.cluster;
