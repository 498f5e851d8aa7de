package dev.wharf.compat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;

/**
 * Apache RocketMQ's own NameServer and broker in this JVM, for {@link ClientThroughput}'s comparison. Their classes
 * come with the Maven profile {@code apache-broker} only (they are no dependency of the tests), so they are reached
 * by reflection; without the profile {@link #start} fails saying so. Set up as RocketMQ's start-up classes do: the
 * {@code rocketmq.remoting.version} property first, then the controllers' {@code initialize} and {@code start}.
 */
final class ApacheServers implements AutoCloseable {

    private final Object namesrv;
    private final Object broker;
    private final String namesrvAddr;

    private ApacheServers(Object namesrv, Object broker, String namesrvAddr) {
        this.namesrv = namesrv;
        this.broker = broker;
        this.namesrvAddr = namesrvAddr;
    }

    static ApacheServers start(Path dir, int queues) throws Exception {
        try {
            Class.forName("org.apache.rocketmq.broker.BrokerController");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("Apache RocketMQ's broker is not on the class path; run with -Papache-broker");
        }
        Class<?> version = Class.forName("org.apache.rocketmq.common.MQVersion");
        System.setProperty("rocketmq.remoting.version", String.valueOf(version.getField("CURRENT_VERSION").getInt(null)));
        int namesrvPort = freePort();
        Object namesrvConfig = newInstance("org.apache.rocketmq.common.namesrv.NamesrvConfig");
        call(namesrvConfig, "setKvConfigPath", String.class, dir.resolve("kvConfig.json").toString());
        call(namesrvConfig, "setConfigStorePath", String.class, dir.resolve("namesrv.properties").toString());
        Object namesrvNetty = newInstance("org.apache.rocketmq.remoting.netty.NettyServerConfig");
        call(namesrvNetty, "setListenPort", int.class, namesrvPort);
        Class<?> namesrvType = Class.forName("org.apache.rocketmq.namesrv.NamesrvController");
        Object namesrv = namesrvType.getConstructor(namesrvConfig.getClass(), namesrvNetty.getClass())
                .newInstance(namesrvConfig, namesrvNetty);
        if (!(Boolean) namesrvType.getMethod("initialize").invoke(namesrv)) {
            throw new IllegalStateException("Apache RocketMQ's NameServer did not initialize");
        }
        namesrvType.getMethod("start").invoke(namesrv);
        String namesrvAddr = "127.0.0.1:" + namesrvPort;

        Object brokerConfig = newInstance("org.apache.rocketmq.common.BrokerConfig");
        call(brokerConfig, "setBrokerName", String.class, "apache-a");
        call(brokerConfig, "setBrokerClusterName", String.class, "ApacheCluster");
        call(brokerConfig, "setNamesrvAddr", String.class, namesrvAddr);
        call(brokerConfig, "setBrokerIP1", String.class, "127.0.0.1");
        call(brokerConfig, "setAutoCreateTopicEnable", boolean.class, true);
        call(brokerConfig, "setDefaultTopicQueueNums", int.class, queues);
        Object brokerNetty = newInstance("org.apache.rocketmq.remoting.netty.NettyServerConfig");
        call(brokerNetty, "setListenPort", int.class, freePort());
        Object clientNetty = newInstance("org.apache.rocketmq.remoting.netty.NettyClientConfig");
        Object store = newInstance("org.apache.rocketmq.store.config.MessageStoreConfig");
        call(store, "setStorePathRootDir", String.class, dir.resolve("store").toString());
        call(store, "setStorePathCommitLog", String.class, dir.resolve("store").resolve("commitlog").toString());
        call(store, "setMappedFileSizeCommitLog", int.class, 256 * 1024 * 1024);
        call(store, "setHaListenPort", int.class, freePort());
        Class<?> brokerType = Class.forName("org.apache.rocketmq.broker.BrokerController");
        Object broker = brokerType.getConstructor(brokerConfig.getClass(), brokerNetty.getClass(),
                clientNetty.getClass(), store.getClass()).newInstance(brokerConfig, brokerNetty, clientNetty, store);
        if (!(Boolean) brokerType.getMethod("initialize").invoke(broker)) {
            namesrvType.getMethod("shutdown").invoke(namesrv);
            throw new IllegalStateException("Apache RocketMQ's broker did not initialize");
        }
        brokerType.getMethod("start").invoke(broker);
        return new ApacheServers(namesrv, broker, namesrvAddr);
    }

    String namesrvAddr() {
        return namesrvAddr;
    }

    @Override
    public void close() throws Exception {
        broker.getClass().getMethod("shutdown").invoke(broker);
        namesrv.getClass().getMethod("shutdown").invoke(namesrv);
    }

    private static Object newInstance(String type) throws Exception {
        return Class.forName(type).getConstructor().newInstance();
    }

    private static void call(Object target, String method, Class<?> type, Object value) throws Exception {
        target.getClass().getMethod(method, type).invoke(target, value);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
