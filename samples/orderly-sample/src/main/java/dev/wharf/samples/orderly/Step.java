package dev.wharf.samples.orderly;

import java.util.List;

/**
 * One step of an order's life, sent as JSON.
 *
 * @param orderId the order, also the sharding key
 * @param step    CREATED, PAID, PACKED or SHIPPED, in that order
 * @param run     the run that sent it (a later run ignores what an earlier one left)
 */
public record Step(long orderId, String step, String run) {

    /** The steps of every order, in order. */
    public static final List<String> ORDER = List.of("CREATED", "PAID", "PACKED", "SHIPPED");
}
