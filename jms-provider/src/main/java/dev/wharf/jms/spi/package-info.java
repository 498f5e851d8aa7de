/**
 * Hooks for frameworks that tie JMS transactions to other resources (the Spring starter): a
 * {@link dev.wharf.jms.spi.TransactionLifecycleListener} learns the Wharf transaction id a transacted session
 * starts, and a {@link dev.wharf.jms.spi.TransactionChecker} answers the broker's check-backs about transactions
 * whose outcome it never learned. Both are set on the connection factory.
 */
package dev.wharf.jms.spi;
