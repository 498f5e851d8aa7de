package dev.wharf.spring.boot.it;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The shop in a child process: starts with the given arguments (broker URL, database, {@code --shop.halt=...}),
 * prints READY, places one order (args[0] is its id) and, with a halt point set, dies inside that transaction.
 */
public final class ShopChildMain {

    private ShopChildMain() {
    }

    public static void main(String[] args) {
        long orderId = Long.parseLong(args[0]);
        String[] springArgs = java.util.Arrays.copyOfRange(args, 1, args.length);
        ConfigurableApplicationContext context = SpringApplication.run(ShopApplication.class, springArgs);
        System.out.println("READY");
        System.out.flush();
        context.getBean(OrderService.class).placeOrder(orderId, "child order", false);
        System.out.println("PLACED " + orderId);
        System.out.flush();
        context.close();
    }
}
