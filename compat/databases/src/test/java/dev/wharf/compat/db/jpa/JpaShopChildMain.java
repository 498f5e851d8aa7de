package dev.wharf.compat.db.jpa;

import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** The JPA shop in a child process: places one order (args[0] is its id) and, with a halt point set, dies in it. */
public final class JpaShopChildMain {

    private JpaShopChildMain() {
    }

    public static void main(String[] args) {
        long orderId = Long.parseLong(args[0]);
        ConfigurableApplicationContext context = SpringApplication.run(JpaShopApplication.class,
                Arrays.copyOfRange(args, 1, args.length));
        context.getBean(JpaOrderService.class).placeOrder(orderId, "child order", false);
        System.out.println("PLACED " + orderId);
        context.close();
    }
}
