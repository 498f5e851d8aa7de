package dev.wharf.compat.db.jpa;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

/** Records the order messages it receives. */
@Component
public class JpaOrderListener {

    private final List<String> bodies = new CopyOnWriteArrayList<>();

    @JmsListener(destination = JpaOrderService.QUEUE)
    void onOrder(String body) {
        bodies.add(body);
    }

    public List<String> bodies() {
        return bodies;
    }
}
