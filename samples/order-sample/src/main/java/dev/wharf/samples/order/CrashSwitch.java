package dev.wharf.samples.order;

import java.io.PrintStream;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The demonstration's crash ({@code --order.crash-after-commit[=N]}): kills the JVM right after the database
 * transaction of order N of the run commits, before the JMS session commits its message. This synchronization runs
 * first after the commit ({@link Ordered#HIGHEST_PRECEDENCE}), and {@link Runtime#halt} runs no shutdown hook and
 * closes nothing, like a power cut for the application and its embedded broker. The order row is committed (marked
 * {@code killed_after_commit} in the same transaction, so the next run can tell that its message can only come
 * from the check-back); the message is a half message the broker holds without an outcome.
 */
@Component
public class CrashSwitch {

    /** Exit code of a run killed by the switch. */
    public static final int EXIT_CODE = 77;

    private final OrderRepository orders;
    private final int crashAfterOrder;
    private final PrintStream out = System.out;

    public CrashSwitch(OrderRepository orders, OrderSampleProperties properties) {
        this.orders = orders;
        this.crashAfterOrder = properties.crashAfterOrder();
    }

    /** The number (in its run) of the order after whose commit the JVM dies, or 0. */
    public int crashAfterOrder() {
        return crashAfterOrder;
    }

    /** Called inside the order's transaction: arms the kill if this is the chosen order. */
    void armIfChosen(Order order) {
        if (order.seq() != crashAfterOrder) {
            return;
        }
        orders.markKilledAfterCommit(order.id());
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public int getOrder() {
                return Ordered.HIGHEST_PRECEDENCE;
            }

            @Override
            public void afterCommit() {
                out.println();
                out.println("Killed the JVM right after the database commit of order #" + order.id() + ": its row is"
                        + " committed, its OrderCreated message is not.");
                out.println("Run the sample again (without --order.crash-after-commit): the broker's check-back"
                        + " delivers the message.");
                out.flush();
                Runtime.getRuntime().halt(EXIT_CODE);
            }
        });
    }
}
