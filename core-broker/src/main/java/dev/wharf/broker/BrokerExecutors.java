package dev.wharf.broker;

import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.remoting.RemotingExecutors;
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

    BrokerExecutors(BrokerConfig config) {
        send = RemotingExecutors.bounded("wharf-send", config.getSendMessageThreadPoolNums(),
                config.getSendThreadPoolQueueCapacity());
        pull = RemotingExecutors.bounded("wharf-pull", config.getPullMessageThreadPoolNums(),
                config.getPullThreadPoolQueueCapacity());
        query = RemotingExecutors.bounded("wharf-query", config.getQueryMessageThreadPoolNums(),
                config.getQueryThreadPoolQueueCapacity());
        admin = RemotingExecutors.bounded("wharf-admin", config.getAdminBrokerThreadPoolNums(),
                config.getAdminBrokerThreadPoolQueueCapacity());
        clientManage = RemotingExecutors.bounded("wharf-client-manage", config.getClientManageThreadPoolNums(),
                config.getClientManagerThreadPoolQueueCapacity());
        pop = RemotingExecutors.bounded("wharf-pop", config.getPopMessageThreadPoolNums(),
                config.getPopThreadPoolQueueCapacity());
        ack = RemotingExecutors.bounded("wharf-ack-request", config.getAckMessageThreadPoolNums(),
                config.getAckThreadPoolQueueCapacity());
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
