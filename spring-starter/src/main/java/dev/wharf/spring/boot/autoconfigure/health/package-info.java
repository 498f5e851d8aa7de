/** Auto-configuration of the {@code wharf} health indicator. */
package dev.wharf.spring.boot.autoconfigure.health;
