package dev.wharf.metrics;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/** A NameServer and one broker in this JVM on 127.0.0.1, both exporting metrics on free ports. */
final class MetricsCluster implements AutoCloseable {

    NameServer nameServer;
    NameServerMetrics nameServerMetrics;
    Broker broker;
    BrokerMetrics metrics;
    private final Deque<Runnable> closers = new ArrayDeque<>();

    MetricsCluster(Path root, Consumer<BrokerSettings> customize) throws Exception {
        try {
            start(root, customize);
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    private void start(Path root, Consumer<BrokerSettings> customize) throws Exception {
        NameServerConfig nsConfig = new NameServerConfig();
        nsConfig.setMetricsExporterType("PROM");
        nsConfig.setMetricsPromExporterPort(0);
        NettyServerConfig nsNetty = new NettyServerConfig();
        nsNetty.setListenPort(0);
        nameServer = new NameServer(nsConfig, nsNetty);
        nameServerMetrics = NameServerMetrics.attach(nameServer, nsConfig);
        nameServer.start();
        closers.push(nameServer::shutdown);
        nameServerMetrics.start();
        closers.push(nameServerMetrics::shutdown);

        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(root.resolve("broker").toString());
        s.store().setMappedFileSizeCommitLog(4 * 1024 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 4_000);
        s.store().setMaxMessageSize(256 * 1024);
        s.store().setMaxHashSlotNum(1_000);
        s.store().setMaxIndexNum(4_000);
        s.store().setFlushIntervalCommitLog(50);
        s.netty().setListenPort(0);
        s.netty().setSelectorThreads(1);
        s.broker().setBrokerName("metrics-broker");
        s.broker().setNamesrvAddr(nameServer.address());
        s.broker().executors().setSendMessageThreadPoolNums(2);
        s.broker().executors().setPullMessageThreadPoolNums(4);
        s.broker().executors().setAdminBrokerThreadPoolNums(1);
        s.broker().executors().setClientManageThreadPoolNums(2);
        s.broker().setDefaultTopicQueueNums(2);
        s.broker().schedule().setMessageDelayLevel("100ms 100ms 100ms 1h");
        s.broker().metrics().setMetricsExporterType("PROM");
        s.broker().metrics().setMetricsPromExporterPort(0);
        customize.accept(s);
        broker = new Broker(s);
        metrics = BrokerMetrics.attach(broker);
        broker.start();
        closers.push(broker::shutdown);
        broker.registerWithNameServers().join();
    }

    /** Stops {@code closer} with the cluster (clients first: last tracked, first closed). */
    <T> T track(T client, Runnable closer) {
        closers.push(closer);
        return client;
    }

    ClientConfig clientConfig() {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer.address());
        config.setInstanceName("metrics-" + System.nanoTime());
        config.setPollNameServerInterval(500);
        config.setHeartbeatBrokerInterval(1_000);
        config.setPersistConsumerOffsetInterval(300);
        config.setMqClientApiTimeout(3_000);
        config.setClientCallbackExecutorThreads(2);
        return config;
    }

    Scrape scrape() {
        return Scrape.of(metrics.port());
    }

    @Override
    public void close() {
        while (!closers.isEmpty()) {
            try {
                closers.pop().run();
            } catch (RuntimeException e) {
                // keep stopping the rest
            }
        }
    }
}
