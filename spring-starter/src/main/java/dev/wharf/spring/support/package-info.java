/**
 * What the listener side and the template side share: the header names of a Wharf message in Spring's
 * {@link org.springframework.messaging.Message} form, the mapping between the two forms, and the default payload
 * converters (String, byte[], JSON through Jackson).
 */
package dev.wharf.spring.support;
