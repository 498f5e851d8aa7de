/**
 * JNDI support: a properties-based initial context
 * ({@code java.naming.factory.initial=dev.wharf.jms.jndi.WharfInitialContextFactory}) that binds connection
 * factories and destinations described in the environment, and the object factory that turns the JNDI
 * references of Wharf's administered objects back into objects in any JNDI tree.
 */
package dev.wharf.jms.jndi;
