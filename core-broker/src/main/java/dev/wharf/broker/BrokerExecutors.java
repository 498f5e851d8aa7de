package dev.wharf.broker;

import dev.wharf.broker.config.ExecutorsConfig;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The bounded executors the broker's processors run on, one per family of requests, so a flood of one kind
 * (pulls) cannot starve another (sends, heartbeats); a full queue answers SYSTEM_BUSY at once. Threads start
 * on first use.
 */
final class BrokerExecutors {

    final ThreadPoolExecutor send;
    final ThreadPoolExecutor pull;
    final ThreadPoolExecutor query;
    final ThreadPoolExecutor admin;
    final ThreadPoolExecutor clientManage;
    final ThreadPoolExecutor pop;
    final ThreadPoolExecutor ack;

    BrokerExecutors(ExecutorsConfig config) {
        send = config.send().newExecutor("wharf-send");
        pull = config.pull().newExecutor("wharf-pull");
        query = config.query().newExecutor("wharf-query");
        admin = config.admin().newExecutor("wharf-admin");
        clientManage = config.clientManage().newExecutor("wharf-client-manage");
        pop = config.pop().newExecutor("wharf-pop");
        ack = config.ack().newExecutor("wharf-ack-request");
    }

    List<ExecutorService> all() {
        return List.of(send, pull, query, admin, clientManage, pop, ack);
    }

    /** Stops taking tasks and waits briefly for running ones (a send completing its put). */
    void shutdown(long waitMillis) {
        all().forEach(ExecutorService::shutdown);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        for (ExecutorService executor : all()) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !executor.awaitTermination(left, TimeUnit.NANOSECONDS)) {
                    executor.shutdownNow();
                }
            } catch (InterruptedException e) {
                executor.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }
}
