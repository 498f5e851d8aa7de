/**
 * In-JVM brokers for {@code vm://name} URLs: {@link dev.wharf.jms.vm.VmBrokerRegistry} starts one NameServer and
 * broker per name on first use, shares it among all factories of that name and stops it on request or when the
 * JVM exits. This is the only package of the provider allowed to use the broker, NameServer and store code.
 */
package dev.wharf.jms.vm;
