package dev.wharf.jms.spi;

/**
 * Answers the broker's check-backs. The broker asks any live producer of the producer group, so a check may reach
 * a process other than the one that started the transaction; {@link TransactionCheck#local()} says what this
 * process knows. Called on a client callback thread; may block briefly (a database look-up); a runtime exception
 * counts as {@link TransactionOutcome#UNKNOWN}.
 */
@FunctionalInterface
public interface TransactionChecker {

    TransactionOutcome check(TransactionCheck check);
}
