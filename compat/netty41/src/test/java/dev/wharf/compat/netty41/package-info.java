/** A JMS application on a classpath whose Netty is 4.1. */
package dev.wharf.compat.netty41;
