package dev.wharf.samples.order;

import java.util.List;

/** An order as stored. */
public record Order(long id, int run, int seq, String item, int quantity, long amountCents, OrderStatus status,
                    boolean killedAfterCommit) {

    private record Product(String item, long priceCents) {
    }

    private static final List<Product> CATALOG = List.of(new Product("kettle", 2_499), new Product("teapot", 1_899),
            new Product("mug", 699));

    /** The {@code seq}-th order of run {@code run}: a product of the catalog in turn, 1 to 3 of it. */
    static Order place(long id, int run, int seq) {
        Product p = CATALOG.get(seq % CATALOG.size());
        int quantity = 1 + (seq / CATALOG.size()) % 3;
        return new Order(id, run, seq, p.item(), quantity, p.priceCents() * quantity, OrderStatus.PLACED, false);
    }

    /**
     * The run's number followed by the order's number written with {@code seqDigits} digits: #2007 is order 7 of
     * run 2 with 3 digits, #300007 order 7 of run 3 with 5.
     */
    static long idOf(int run, int seq, int seqDigits) {
        long scale = 1;
        for (int i = 0; i < seqDigits; i++) {
            scale *= 10;
        }
        return run * scale + seq;
    }

    /** How many digits the number {@code n} has (at least 1). */
    static int digits(long n) {
        return Long.toString(Math.max(1, n)).length();
    }
}
