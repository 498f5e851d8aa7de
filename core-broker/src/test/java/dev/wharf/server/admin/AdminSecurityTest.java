package dev.wharf.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.security.AclFile;
import dev.wharf.server.Cli;
import dev.wharf.server.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** user-create, user-delete, acl-set, acl-list, and admin commands carrying --user/--password to secured servers. */
class AdminSecurityTest {

    @TempDir
    Path dir;

    private Cli.Result cli(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "admin";
        System.arraycopy(args, 0, all, 1, args.length);
        return Cli.run(all);
    }

    @Test
    void usersAndPoliciesAreManagedInTheFileAndCommandsSignAsTheGivenUser() throws Exception {
        String acl = dir.resolve("acl.json").toString();
        assertThat(cli("user-create", "root", "--super", "--acl-file", acl, "--new-password=root-password").exitCode())
                .isZero();
        Cli.Result created = cli("user-create", "app", "--acl-file", acl, "--new-password=app-password");
        assertThat(created.out().trim()).isEqualTo("Created user app in " + acl + ".");
        assertThat(cli("user-create", "weak", "--acl-file", acl, "--new-password=short").err())
                .contains("shorter than 8 characters");
        assertThat(cli("acl-set", "--acl-file", acl, "--for", "app", "--resource", "topic:app-*", "--actions",
                "PUB,SUB").out().trim()).isEqualTo("User app: ALLOW [PUB, SUB] on topic:app-*.");
        assertThat(cli("acl-set", "--acl-file", acl, "--for", "app", "--resource", "queue:x", "--actions", "PUB")
                .err()).contains("unknown type 'queue'");
        assertThat(cli("acl-set", "--acl-file", acl, "--for", "ghost", "--resource", "topic:x", "--actions", "PUB")
                .err()).contains("No user named ghost");
        Cli.Result listed = cli("acl-list", "--acl-file", acl);
        assertThat(listed.out()).contains("root", "* (super user)").containsPattern("app +ALLOW +PUB,SUB +topic:app-\\*");
        assertThat(Files.readString(Path.of(acl))).doesNotContain("app-password").doesNotContain("root-password");
        assertThat(cli("user-create", "gone", "--acl-file", acl, "--new-password=gone-password").exitCode()).isZero();
        assertThat(cli("user-delete", "gone", "--acl-file", acl).exitCode()).isZero();
        assertThat(AclFile.read(Path.of(acl))).extracting(u -> u.name()).containsExactly("root", "app");

        NettyServerConfig nsConfig = new NettyServerConfig();
        nsConfig.setListenPort(0);
        nsConfig.setAclEnable(true);
        nsConfig.setAclFile(acl);
        NameServer ns = new NameServer(new NameServerConfig(), nsConfig);
        ns.start();
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(dir.resolve("store").toString());
        s.store().setMappedFileSizeCommitLog(8 * 1024 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 10_000);
        s.netty().setListenPort(0);
        s.netty().setAclEnable(true);
        s.netty().setAclFile(acl);
        s.broker().setNamesrvAddr(ns.address());
        s.broker().innerClient().setInnerClientAuthenticationCredentials("root:root-password");
        Broker broker = new Broker(s);
        try {
            broker.start();
            broker.registerWithNameServers().join();
            Cli.Result anonymous = cli("-n", ns.address(), "topic-create", "--topic", "app-orders");
            assertThat(anonymous.exitCode()).isNotZero();
            assertThat(anonymous.err()).contains("carries no credentials");
            Cli.Result noPassword = cli("-n", ns.address(), "--user", "app", "topics");
            assertThat(noPassword.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(noPassword.err()).contains("--user app needs a password");
            Cli.Result denied = cli("-n", ns.address(), "--user", "app", "--password=app-password", "topic-create",
                    "--topic", "app-orders");
            assertThat(denied.exitCode()).isNotZero();
            assertThat(denied.err()).contains("user 'app' lacks ADMIN on topic:app-orders");
            Cli.Result allowed = cli("-n", ns.address(), "--user", "root", "--password=root-password",
                    "topic-create", "--topic", "app-orders");
            assertThat(allowed.exitCode()).as(allowed.toString()).isZero();
            assertThat(cli("-n", ns.address(), "--user", "app", "--password=app-password", "send", "--topic",
                    "app-orders", "--body", "hello").exitCode()).isZero();
        } finally {
            broker.shutdown();
            ns.shutdown();
        }
    }
}
