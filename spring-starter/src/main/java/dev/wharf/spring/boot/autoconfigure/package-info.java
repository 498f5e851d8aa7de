/**
 * Spring Boot auto-configuration of Wharf: the connection factory, the embedded broker, the {@code wharf.*}
 * properties and the transactional-messaging beans. Entry point: {@link dev.wharf.spring.boot.autoconfigure.WharfAutoConfiguration}.
 */
package dev.wharf.spring.boot.autoconfigure;
