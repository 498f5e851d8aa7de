/**
 * Wharf's Spring Boot starter: auto-configuration ({@code autoconfigure}), the embedded broker ({@code embedded}),
 * messages that commit with database transactions ({@code transaction}) and Actuator support ({@code actuate}).
 */
package dev.wharf.spring.boot;
