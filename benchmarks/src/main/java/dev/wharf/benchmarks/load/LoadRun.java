package dev.wharf.benchmarks.load;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One measurement against one server: create the topic, start the consumer (and wait until it owns every queue),
 * start the producers, warm up, measure, stop the producers, let the consumer drain, report. Prints a progress
 * line per second.
 */
final class LoadRun {

    /** How long the consumer may take to catch up after the producers stopped. */
    private static final long DRAIN_MILLIS = 10_000;
    private static final long ASSIGN_MILLIS = 30_000;

    private final LoadTool options;
    private final PrintWriter out;

    LoadRun(LoadTool options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    LoadResult run(String label, String nameServer) throws ClientException, InterruptedException {
        boolean produce = options.mode != LoadTool.Mode.CONSUME;
        boolean consume = options.mode != LoadTool.Mode.PRODUCE;
        double loadBefore = loadAverage();
        prepareTopic(nameServer, consume);
        Window window = new Window();
        ConsumerLoad consumer = null;
        ProducerLoad producer = null;
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "wharf-load-progress");
            t.setDaemon(true);
            return t;
        });
        try {
            if (consume) {
                consumer = new ConsumerLoad(config(nameServer, "consumer"), options.topic, options.group,
                        options.consumeThreads, options.consumeBatch, window);
                consumer.start();
                awaitAssignment(consumer);
            }
            if (produce) {
                producer = new ProducerLoad(config(nameServer, "producer"), options.topic, options.threads,
                        options.size, window);
                producer.start();
            }
            Progress meter = new Progress(out, producer, consumer, window);
            progress.scheduleAtFixedRate(meter::print, 1, 1, TimeUnit.SECONDS);
            sleepSeconds(options.warmup);
            window.open();
            sleepSeconds(options.duration);
            window.close();
            progress.shutdownNow();
            if (producer != null) {
                producer.stop();
                if (consumer != null) {
                    drain(consumer, producer.sent.sum());
                }
            }
        } finally {
            progress.shutdownNow();
            if (producer != null) {
                producer.stop();
            }
            if (consumer != null) {
                consumer.stop();
            }
        }
        long sent = producer == null ? 0 : producer.sentInWindow.sum();
        long backlog = producer == null || consumer == null ? 0
                : Math.max(0, producer.sent.sum() - consumer.consumed.sum());
        return new LoadResult(label, window.seconds(), sent,
                producer == null ? 0 : producer.errors.sum(), producer == null ? null : producer.firstError.get(),
                producer == null ? new LatencyHistogram() : producer.latencies(),
                consumer == null ? 0 : consumer.consumedInWindow.sum(),
                consumer == null ? new LatencyHistogram() : consumer.latencies(),
                backlog, options.size, loadBefore,
                loadAverage());
    }

    private ClientConfig config(String nameServer, String role) {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer);
        // producer and consumer on connections of their own, as two applications would be
        config.setInstanceName("wharf-load-" + role);
        return config;
    }

    /** Creates (or resizes) the topic, waits for its route, and moves the group to the end of the topic. */
    private void prepareTopic(String nameServer, boolean consume) throws ClientException, InterruptedException {
        AdminClient admin = new AdminClient(config(nameServer, "admin"));
        admin.start();
        try {
            admin.createTopic(options.topic, options.queues);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (!routed(admin)) {
                if (System.nanoTime() > deadline) {
                    throw new ClientException("The NameServer at " + nameServer + " does not route topic "
                            + options.topic + " 15 s after it was created; is a broker registered?");
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            if (consume) {
                try {
                    // a group left behind by an earlier run would start with its backlog
                    admin.resetOffset(options.group, options.topic, AdminClient.LATEST);
                } catch (ClientException e) {
                    // a group the broker has never seen has nothing to skip
                }
            }
        } finally {
            admin.shutdown();
        }
    }

    private boolean routed(AdminClient admin) throws InterruptedException {
        try {
            return admin.route(options.topic).queueDatas().stream()
                    .anyMatch(q -> q.writeQueueNums() == options.queues);
        } catch (ClientException e) {
            return false;
        }
    }

    private void awaitAssignment(ConsumerLoad consumer) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ASSIGN_MILLIS);
        while (consumer.assignedQueues() < options.queues && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
        if (consumer.assignedQueues() < options.queues) {
            out.printf("warning: the consumer owns %d of %d queues after %d s; another member of group %s may be "
                    + "running%n", consumer.assignedQueues(), options.queues, ASSIGN_MILLIS / 1000, options.group);
        }
    }

    /** Waits until the consumer received as many messages as were sent since the run started (it started first). */
    private void drain(ConsumerLoad consumer, long sent) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
        while (consumer.consumed.sum() < sent && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static void sleepSeconds(int seconds) throws InterruptedException {
        TimeUnit.SECONDS.sleep(seconds);
    }

    static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
