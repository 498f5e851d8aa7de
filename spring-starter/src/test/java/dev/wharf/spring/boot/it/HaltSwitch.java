package dev.wharf.spring.boot.it;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A test hook that kills the JVM at a chosen point of the current transaction ({@code shop.halt}):
 * {@code after-commit} right after the database committed, before the JMS session commits its messages (this
 * synchronization runs first); {@code before-commit} just before the database commits. {@link Runtime#halt} runs
 * no shutdown hook, closes no connection: like a power cut for the broker and the database.
 */
@Component
public class HaltSwitch {

    /** Exit code of a halted child, so the test can tell it from a crash. */
    public static final int HALTED = 77;

    private final String when;

    public HaltSwitch(@Value("${shop.halt:never}") String when) {
        this.when = when;
    }

    void arm(long orderId) {
        if ("never".equals(when)) {
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public int getOrder() {
                return Ordered.HIGHEST_PRECEDENCE;
            }

            @Override
            public void beforeCommit(boolean readOnly) {
                if ("before-commit".equals(when)) {
                    halt("before-commit", orderId);
                }
            }

            @Override
            public void afterCommit() {
                if ("after-commit".equals(when)) {
                    halt("after-commit", orderId);
                }
            }
        });
    }

    private static void halt(String point, long orderId) {
        System.out.println("HALT " + point + " " + orderId);
        System.out.flush();
        Runtime.getRuntime().halt(HALTED);
    }
}
