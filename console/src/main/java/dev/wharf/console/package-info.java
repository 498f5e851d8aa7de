/**
 * The Wharf web console: a Spring Boot application that reads and changes a cluster through the admin client only
 * (never broker or store internals), with a JSON API under {@code /api} and pages that draw it.
 */
package dev.wharf.console;
