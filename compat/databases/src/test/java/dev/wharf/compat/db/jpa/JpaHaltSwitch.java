package dev.wharf.compat.db.jpa;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A test hook that kills the JVM right after the database committed and before the JMS session commits its
 * messages ({@code shop.halt=after-commit}): {@link Runtime#halt} runs no shutdown hook and closes no connection.
 */
@Component
public class JpaHaltSwitch {

    /** Exit code of a halted child, so the test can tell it from a crash. */
    public static final int HALTED = 77;

    private final boolean afterCommit;

    public JpaHaltSwitch(@Value("${shop.halt:never}") String when) {
        this.afterCommit = "after-commit".equals(when);
    }

    void arm(long orderId) {
        if (!afterCommit) {
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public int getOrder() {
                return Ordered.HIGHEST_PRECEDENCE;
            }

            @Override
            public void afterCommit() {
                System.out.println("HALT after-commit " + orderId);
                System.out.flush();
                Runtime.getRuntime().halt(HALTED);
            }
        });
    }
}
