/**
 * The Wharf side of a JMS connection, below the JMS objects: the low-level client a connection talks through
 * ({@link dev.wharf.jms.engine.BrokerLink}), the health probe that turns a lost broker into an exception-listener
 * call ({@link dev.wharf.jms.engine.ConnectionMonitor}), the JVM-wide client-identifier registry, and the send
 * machinery sessions share: queue choice for ordering ({@link dev.wharf.jms.engine.SessionQueues}) and ordered
 * asynchronous sends ({@link dev.wharf.jms.engine.OrderedSends}). Nothing here implements a JMS interface.
 */
package dev.wharf.jms.engine;
