/**
 * The side-by-side comparison: the same four JMS workloads against an embedded ActiveMQ Artemis and an in-JVM
 * Wharf broker, providers alternating round by round in one JVM, so that their ratios can be read on a busy
 * machine. It lives under the test sources because Artemis is a test-scoped dependency of this module.
 */
package dev.wharf.benchmarks.sbs;
