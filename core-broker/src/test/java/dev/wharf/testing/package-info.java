/**
 * The test harness every module's tests share (published as core-broker's test jar): real NameServers and brokers
 * in the test's JVM on 127.0.0.1 and free ports, started through {@link dev.wharf.embedded.EmbeddedServer} like the
 * product's own in-process servers, with small store files and short client intervals so that tests run in seconds.
 */
package dev.wharf.testing;
