package dev.wharf.spring.boot.it;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places an order: a row and an "order N" message on the queue {@code orders}, committed together. */
@Service
public class OrderService {

    private final JdbcTemplate jdbc;
    private final JmsTemplate jms;
    private final HaltSwitch halt;

    public OrderService(JdbcTemplate jdbc, JmsTemplate jms, HaltSwitch halt) {
        this.jdbc = jdbc;
        this.jms = jms;
        this.halt = halt;
    }

    /** @param fail whether the method fails after writing and sending (so the transaction rolls back) */
    @Transactional
    public void placeOrder(long id, String item, boolean fail) {
        jdbc.update("INSERT INTO orders (id, item) VALUES (?, ?)", id, item);
        jms.convertAndSend("orders", "order " + id);
        halt.arm(id);
        if (fail) {
            throw new IllegalStateException("payment declined for order " + id);
        }
    }

    /**
     * Places an order with a second message, a bytes attachment, to the queue {@code attachments}: both are sent in
     * the order's transaction, stored with the flush before the database commits.
     */
    @Transactional
    public void placeOrderWithAttachment(long id, byte[] attachment) {
        jdbc.update("INSERT INTO orders (id, item) VALUES (?, ?)", id, "with attachment");
        jms.convertAndSend("orders", "order " + id);
        jms.send("attachments", session -> {
            jakarta.jms.BytesMessage m = session.createBytesMessage();
            m.writeBytes(attachment);
            return m;
        });
    }

    public long orderCount(long id) {
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE id = ?", Long.class, id);
        return n == null ? 0 : n;
    }
}
