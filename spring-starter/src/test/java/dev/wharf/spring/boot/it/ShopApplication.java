package dev.wharf.spring.boot.it;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small shop for the end-to-end tests: orders written with JdbcTemplate and announced with JmsTemplate in one
 * {@code @Transactional} method ({@link OrderService}), and listeners that record what they receive
 * ({@link ShopListeners}). Also started as a child process by {@link ShopChildMain}.
 */
@SpringBootApplication
public class ShopApplication {

    public static void main(String[] args) {
        SpringApplication.run(ShopApplication.class, args);
    }
}
