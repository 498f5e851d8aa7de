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
    static Order place(int run, int seq) {
        Product p = CATALOG.get(seq % CATALOG.size());
        int quantity = 1 + (seq / CATALOG.size()) % 3;
        return new Order(idOf(run, seq), run, seq, p.item(), quantity, p.priceCents() * quantity, OrderStatus.PLACED,
                false);
    }

    /** {@code run * 1000 + seq}: #2007 is order 7 of run 2. */
    static long idOf(int run, int seq) {
        return run * 1_000L + seq;
    }
}
