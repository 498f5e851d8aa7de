/** Auto-configuration of Wharf's Micrometer meters. */
package dev.wharf.spring.boot.autoconfigure.metrics;
