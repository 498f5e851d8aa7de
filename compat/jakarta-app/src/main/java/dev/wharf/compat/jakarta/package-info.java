/**
 * A plain Jakarta EE style application: no Spring, no container, only the JMS API and a {@code jndi.properties}
 * file that names Wharf's initial context factory, its connection factory and its destinations.
 */
package dev.wharf.compat.jakarta;
