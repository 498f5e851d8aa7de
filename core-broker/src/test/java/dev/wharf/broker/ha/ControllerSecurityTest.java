package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.controller.ControllerConfig;
import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.auth.SigningHook;
import dev.wharf.security.AclFile;
import dev.wharf.security.Action;
import dev.wharf.security.Credentials;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Policy;
import dev.wharf.security.User;
import dev.wharf.testing.RaftPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Controller mode with aclEnable: a controller inside a NameServer that authenticates takes a broker whose
 * controller client signs with the broker's credential, and an admin's requests signed with the admin's; unsigned
 * requests and users without the right are refused with the reason.
 */
@Timeout(120)
class ControllerSecurityTest {

    private static final String PASSWORD = "controller-secret-1";

    @TempDir
    Path dir;

    private static User user(String name, boolean superUser, Policy... policies) {
        return new User(name, PasswordHasher.hash(name, PASSWORD.toCharArray()), superUser, List.of(policies));
    }

    private static UnaryOperator<NettyRemotingClient> signedAs(String user) {
        Credentials credentials = Credentials.of(user, PASSWORD);
        return client -> {
            client.setRequestSigner(new SigningHook(credentials));
            return client;
        };
    }

    @Test
    void aBrokerAndAnAdminSigningTheirRequestsAreServedByAControllerWithAcl() throws Exception {
        Path acl = dir.resolve("acl.json");
        AclFile.write(acl, List.of(user("admin", true), user("broker", false, Policy.allow("cluster:*", Action.ADMIN)),
                user("app", false, Policy.allow("topic:*", Action.PUB, Action.SUB))));
        NameServerConfig nsConfig = new NameServerConfig();
        nsConfig.setEnableControllerInNamesrv(true);
        NettyServerConfig nsServer = new NettyServerConfig();
        nsServer.setListenPort(0);
        nsServer.setAclEnable(true);
        nsServer.setAclFile(acl.toString());
        ControllerConfig controllerConfig = new ControllerConfig();
        controllerConfig.setControllerPeers("n0=127.0.0.1:" + RaftPorts.free());
        controllerConfig.setControllerSelfId("n0");
        controllerConfig.setControllerStorePath(dir.resolve("controller").toString());
        NameServer nameServer = new NameServer(nsConfig, nsServer, controllerConfig);
        nameServer.start();
        Broker broker = null;
        try {
            BrokerSettings s = ChildReplicaMain.settings(dir.resolve("broker"), nameServer.address(),
                    nameServer.address());
            s.ha().setBrokerRole(BrokerRole.ASYNC_MASTER); // the elected role; a lone replica can be master
            s.netty().setAclEnable(true);
            s.netty().setAclFile(acl.toString());
            s.broker().innerClient().setInnerClientAuthenticationCredentials("broker:" + PASSWORD);
            broker = new Broker(s);
            broker.start();
            Broker started = broker;
            // the broker registers with the controller, is elected and registers with the NameServer: all signed
            await().atMost(Duration.ofSeconds(60)).until(() -> started.ha().role().isMaster());

            try (ControllerAdmin admin = new ControllerAdmin(nameServer.address(), 5_000, signedAs("admin"))) {
                List<BrokerGroupInfo> groups = admin.brokerGroups(HaCluster.NAME);
                assertThat(groups).singleElement().satisfies(g -> {
                    assertThat(g.masterBrokerId()).isPositive();
                    assertThat(g.masterAddress()).isEqualTo(started.address());
                });
            }
            try (ControllerAdmin anonymous = new ControllerAdmin(nameServer.address(), 5_000)) {
                ControllerException e = catchThrowableOfType(() -> anonymous.brokerGroups(HaCluster.NAME),
                        ControllerException.class);
                assertThat(e.code()).isEqualTo(ResponseCode.AUTHENTICATION_FAILED);
                assertThat(e.getMessage()).contains("carries no credentials");
            }
            try (ControllerAdmin app = new ControllerAdmin(nameServer.address(), 5_000, signedAs("app"))) {
                ControllerException e = catchThrowableOfType(() -> app.electMaster(HaCluster.NAME, 1),
                        ControllerException.class);
                assertThat(e.code()).isEqualTo(ResponseCode.NO_PERMISSION);
                assertThat(e.getMessage()).contains("user 'app' lacks ADMIN");
            }
        } finally {
            if (broker != null) {
                broker.shutdown();
            }
            nameServer.shutdown();
        }
    }
}
