/** The Jakarta Messaging 3.1 provider: connection factory, connections, sessions, producers and consumers. */
package dev.wharf.jms;
