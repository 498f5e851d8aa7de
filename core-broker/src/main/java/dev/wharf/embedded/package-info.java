/**
 * A NameServer and a broker run inside one JVM: {@link dev.wharf.embedded.EmbeddedServer} starts them in order,
 * rolls back what started when a later part fails and words every failure the same way. The command line's
 * foreground servers, {@code vm://} URLs and the Spring Boot starter all start their servers through it, so the
 * start order, the rollback and the error wording are written once. Sits above the broker, the NameServer and the
 * metrics, below the command line.
 */
package dev.wharf.embedded;
