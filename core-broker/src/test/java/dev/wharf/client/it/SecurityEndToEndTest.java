package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.RouteHeaders.RegisterBrokerRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.auth.SigningHook;
import dev.wharf.security.AclFile;
import dev.wharf.security.Action;
import dev.wharf.security.Credentials;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Policy;
import dev.wharf.security.RequestSignature;
import dev.wharf.security.User;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A NameServer and a broker with aclEnable on 127.0.0.1, one users file, real clients: the attacks of the security
 * issue are refused (unauthenticated or rogue broker registration, consuming, sending, resetting and deleting
 * without the right) and the same requests pass for users holding the rights.
 */
class SecurityEndToEndTest {

    private static final String PASSWORD = "s3cret-enough";
    private static final String TOPIC = "orders";
    private static final String GROUP = "orders-group";

    @TempDir
    Path dir;
    private Path aclFile;
    private NameServer nameServer;
    private Broker broker;
    private final List<AutoCloseable> closers = new ArrayList<>();

    private static User user(String name, boolean superUser, Policy... policies) {
        return new User(name, PasswordHasher.hash(name, PASSWORD.toCharArray()), superUser, List.of(policies));
    }

    @BeforeEach
    void start() throws Exception {
        aclFile = dir.resolve("acl.json");
        AclFile.write(aclFile, List.of(
                user("admin", true),
                user("broker", false, Policy.allow("cluster:*", Action.ADMIN)),
                user("producer", false, Policy.allow("topic:orders", Action.PUB)),
                user("consumer", false, Policy.allow("topic:orders", Action.SUB),
                        Policy.allow("group:orders-*", Action.SUB)),
                user("nobody", false)));
        NettyServerConfig ns = new NettyServerConfig();
        ns.setListenPort(0);
        ns.setAclEnable(true);
        ns.setAclFile(aclFile.toString());
        nameServer = new NameServer(new NameServerConfig(), ns);
        nameServer.start();
        BrokerSettings s = TestWharf.settings(dir.resolve("broker-a"), "broker-a", nameServer.address());
        s.netty().setAclEnable(true);
        s.netty().setAclFile(aclFile.toString());
        s.broker().innerClient().setInnerClientAuthenticationCredentials("{\"accessKey\":\"broker\",\"secretKey\":\"" + PASSWORD
                + "\"}");
        broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
        await().atMost(Duration.ofSeconds(10)).until(() -> nameServer.routes().liveBrokers().size() == 1);
        AdminClient admin = admin("admin");
        admin.createTopic(TOPIC, 2, "DefaultCluster");
        broker.registerWithNameServers().join();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> admin.route(TOPIC) != null);
    }

    @AfterEach
    void stop() {
        for (int i = closers.size() - 1; i >= 0; i--) {
            try {
                closers.get(i).close();
            } catch (Exception e) {
                // best effort
            }
        }
        broker.shutdown();
        nameServer.shutdown();
    }

    private ClientConfig config(String user) {
        ClientConfig c = new ClientConfig();
        c.setNamesrvAddr(nameServer.address());
        c.setInstanceName("sec-" + user + "-" + System.nanoTime());
        c.setMqClientApiTimeout(3_000);
        c.setClientCallbackExecutorThreads(2);
        if (user != null) {
            c.withCredentials(user, user.equals("wrong") ? "not-the-password" : PASSWORD);
            if (user.equals("wrong")) {
                c.setAccessKey("consumer");
            }
        }
        return c;
    }

    private AdminClient admin(String user) throws ClientException {
        AdminClient admin = new AdminClient(config(user));
        admin.start();
        closers.add(admin::shutdown);
        return admin;
    }

    private Producer producer(String user) throws ClientException {
        Producer p = new Producer("orders-producer", config(user));
        p.start();
        closers.add(p::shutdown);
        return p;
    }

    private PullConsumer puller(String user, String group) throws ClientException {
        PullConsumer c = new PullConsumer(group, config(user));
        c.start();
        closers.add(c::shutdown);
        return c;
    }

    private NettyRemotingClient raw(String user) {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        if (user != null) {
            client.setRequestSigner(new SigningHook(Credentials.of(user, PASSWORD)));
        }
        client.start();
        closers.add(client::shutdown);
        return client;
    }

    private static RemotingCommand registration(int code, String brokerAddr) {
        RemotingCommand request = RemotingCommand.createRequest(code);
        HeaderCodec.encode(new RegisterBrokerRequest("broker-a", brokerAddr, "DefaultCluster", 0L, null))
                .forEach(request::putExt);
        return request;
    }

    private String routedAddress() {
        return nameServer.routes().pickupTopicRouteData(TOPIC).brokerDatas().get(0).brokerAddrs().get(0L);
    }

    @Test
    void theNameServerRefusesUnauthenticatedAndRogueRegistrations() throws Exception {
        String honest = routedAddress();
        assertThat(honest).isEqualTo(broker.address());

        RemotingCommand anonymous = raw(null).invokeSync(nameServer.address(),
                registration(RequestCode.UNREGISTER_BROKER, honest), 3_000);
        assertThat(anonymous.code()).isEqualTo(ResponseCode.AUTHENTICATION_FAILED);
        assertThat(anonymous.remark()).contains("carries no credentials");

        RemotingCommand byAnApp = raw("consumer").invokeSync(nameServer.address(),
                registration(RequestCode.REGISTER_BROKER, "127.0.0.1:1"), 3_000);
        assertThat(byAnApp.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(byAnApp.remark()).contains("user 'consumer' lacks ADMIN on cluster:DefaultCluster")
                .contains("REGISTER_BROKER");

        NettyRemotingClient rogue = raw("broker");
        RemotingCommand takeover = rogue.invokeSync(nameServer.address(),
                registration(RequestCode.REGISTER_BROKER, "127.0.0.1:1"), 3_000);
        assertThat(takeover.code()).as("even with the cluster credential, a live broker keeps its name and id")
                .isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(takeover.remark()).contains("broker-a id=0 is registered by a live broker at " + honest);
        RemotingCommand unregister = rogue.invokeSync(nameServer.address(),
                registration(RequestCode.UNREGISTER_BROKER, honest), 3_000);
        assertThat(unregister.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(unregister.remark()).contains("only that connection may unregister it");

        assertThat(routedAddress()).as("the topic still routes to the honest broker").isEqualTo(honest);
        assertThat(nameServer.security().guard().authenticationFailures()).isEqualTo(1);
    }

    @Test
    void aReplayedOrForgedSignatureIsRefused() throws Exception {
        Credentials consumer = Credentials.of("consumer", PASSWORD);
        RemotingCommand old = RemotingCommand.createRequest(RequestCode.GET_ROUTEINFO_BY_TOPIC).putExt("topic", TOPIC)
                .putExt(RequestSignature.ACCESS_KEY, "consumer")
                .putExt(RequestSignature.TIMESTAMP, System.currentTimeMillis() - 600_000);
        old.putExt(RequestSignature.SIGNATURE, consumer.signature(old.code(), old.extFields(), null, null));
        RemotingCommand replayed = raw(null).invokeSync(nameServer.address(), old, 3_000);
        assertThat(replayed.code()).isEqualTo(ResponseCode.AUTHENTICATION_FAILED);
        assertThat(replayed.remark()).contains("outside the 120000 ms window");

        ClientConfig wrong = config("wrong");
        PullConsumer c = new PullConsumer(GROUP, wrong);
        c.start();
        closers.add(c::shutdown);
        assertThatThrownBy(() -> c.fetchSubscribeMessageQueues(TOPIC)).isInstanceOf(ClientException.class)
                .satisfies(e -> assertThat(((ClientException) e).responseCode())
                        .isEqualTo(ResponseCode.AUTHENTICATION_FAILED))
                .hasMessageContaining("authentication of user 'consumer' failed");
    }

    @Test
    void sendAndConsumeNeedTheirRights() throws Exception {
        Producer allowed = producer("producer");
        allowed.send(new Message(TOPIC, "m1".getBytes(StandardCharsets.UTF_8)));

        assertThatThrownBy(() -> producer(null).send(new Message(TOPIC, "x".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(ClientException.class).hasMessageContaining("no credentials");
        assertThatThrownBy(() -> producer("consumer").send(new Message(TOPIC, "x".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(ClientException.class).hasMessageContaining("user 'consumer' lacks PUB on topic:orders");

        PullConsumer consumer = puller("consumer", GROUP);
        Set<MessageQueue> queues = consumer.fetchSubscribeMessageQueues(TOPIC);
        long found = 0;
        for (MessageQueue mq : queues) {
            PullResult r = consumer.pull(mq, MessageSelector.all(), 0, 32);
            found += r.msgFoundList() == null ? 0 : r.msgFoundList().size();
        }
        assertThat(found).isEqualTo(1);

        MessageQueue mq = queues.iterator().next();
        assertThatThrownBy(() -> puller("producer", GROUP).pull(mq, MessageSelector.all(), 0, 32))
                .hasMessageContaining("user 'producer' lacks SUB on topic:orders");
        assertThatThrownBy(() -> puller("consumer", "payroll-group").pull(mq, MessageSelector.all(), 0, 32))
                .hasMessageContaining("user 'consumer' lacks SUB on group:payroll-group");
        assertThatThrownBy(() -> puller("nobody", GROUP).pull(mq, MessageSelector.all(), 0, 32))
                .hasMessageContaining("user 'nobody' lacks SUB on topic:orders");
    }

    @Test
    void adminRequestsNeedAdmin() throws Exception {
        AdminClient consumerAdmin = admin("consumer");
        assertThatThrownBy(() -> consumerAdmin.resetOffset(GROUP, TOPIC, AdminClient.EARLIEST))
                .isInstanceOf(ClientException.class)
                .hasMessageContaining("user 'consumer' lacks ADMIN on group:orders-group");
        assertThatThrownBy(() -> consumerAdmin.deleteTopic(TOPIC))
                .hasMessageContaining("user 'consumer' lacks ADMIN on topic:orders");
        assertThatThrownBy(() -> consumerAdmin.createTopic("new-topic", 1, "DefaultCluster"))
                .hasMessageContaining("lacks ADMIN on topic:new-topic");
        assertThat(consumerAdmin.route(TOPIC)).as("lookups need authentication only").isNotNull();

        AdminClient admin = admin("admin");
        admin.resetOffset(GROUP, TOPIC, AdminClient.EARLIEST);
        admin.deleteTopic(TOPIC);
        await().atMost(Duration.ofSeconds(10)).until(() -> !admin.topics().contains(TOPIC));
    }

    @Test
    void rightsGrantedInTheFileApplyWithoutRestart() throws Exception {
        Producer producer = producer("nobody");
        Message m = new Message(TOPIC, "later".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> producer.send(m)).hasMessageContaining("user 'nobody' lacks PUB");
        List<User> users = new ArrayList<>(AclFile.read(aclFile));
        users.replaceAll(u -> u.name().equals("nobody") ? u.withPolicies(List.of(Policy.allow("topic:ord*",
                Action.PUB))) : u);
        AclFile.write(aclFile, users);
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() -> producer.send(m) != null);
    }
}
