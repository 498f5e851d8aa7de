package dev.wharf.samples.order;

import java.time.Duration;
import java.util.Locale;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/** What one run of the order sample does ({@code order.*}); checked when bound. */
@ConfigurationProperties("order")
public class OrderSampleProperties implements InitializingBean {

    /**
     * Largest number of orders in one run. Order ids are the run's number followed by the order's number in the run
     * (with 3 digits, or more for a larger run), so there is no limit of the ids below this one; it keeps a run to
     * what the sample's single-threaded placing can finish in hours rather than days.
     */
    static final int MAX_ORDERS = 1_000_000;

    /** How many orders the run places. */
    private int orders = 20;

    /** How long a customer has to pay once the stock is reserved; unpaid orders are cancelled then. */
    private Duration paymentWindow = Duration.ofSeconds(3);

    /**
     * How long the run waits, once it has placed its last order, for every order to be paid, cancelled or
     * dead-lettered before it gives up.
     */
    private Duration settleTimeout = Duration.ofSeconds(45);

    /**
     * Kills the JVM right after the database commit of this order of the run (its number, 1 when given without a
     * value), before its message is committed. The next run shows the message delivered by the broker's check-back.
     */
    private String crashAfterCommit;

    public int getOrders() {
        return orders;
    }

    public void setOrders(int orders) {
        this.orders = orders;
    }

    public Duration getPaymentWindow() {
        return paymentWindow;
    }

    public void setPaymentWindow(Duration paymentWindow) {
        this.paymentWindow = paymentWindow;
    }

    public Duration getSettleTimeout() {
        return settleTimeout;
    }

    public void setSettleTimeout(Duration settleTimeout) {
        this.settleTimeout = settleTimeout;
    }

    public String getCrashAfterCommit() {
        return crashAfterCommit;
    }

    public void setCrashAfterCommit(String crashAfterCommit) {
        this.crashAfterCommit = crashAfterCommit;
    }

    /**
     * Checks the values.
     *
     * @throws InvalidConfigurationPropertyValueException naming the property and what to give instead
     */
    @Override
    public void afterPropertiesSet() {
        if (orders < 1 || orders > MAX_ORDERS) {
            throw new InvalidConfigurationPropertyValueException("order.orders", orders,
                    "Give a number of orders from 1 to " + String.format(Locale.ROOT, "%,d", MAX_ORDERS) + ".");
        }
        requirePositive("order.payment-window", paymentWindow, "3s");
        requirePositive("order.settle-timeout", settleTimeout, "45s");
        crashAfterOrder();
    }

    /**
     * The number of the order after whose commit the JVM is killed, or 0 for none.
     *
     * @throws InvalidConfigurationPropertyValueException when order.crash-after-commit is not such a number
     */
    int crashAfterOrder() {
        if (crashAfterCommit == null || crashAfterCommit.strip().equalsIgnoreCase("false")) {
            return 0;
        }
        String value = crashAfterCommit.strip();
        if (value.isEmpty() || value.equalsIgnoreCase("true")) {
            return 1;
        }
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > orders) {
            throw new InvalidConfigurationPropertyValueException("order.crash-after-commit", crashAfterCommit,
                    "Give the number of the order to crash after, from 1 to order.orders (" + orders + "), or no"
                            + " value for the first one.");
        }
        return n;
    }

    private static void requirePositive(String property, Duration value, String example) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidConfigurationPropertyValueException(property, value,
                    "Give a positive duration, e.g. " + example + ".");
        }
    }
}
