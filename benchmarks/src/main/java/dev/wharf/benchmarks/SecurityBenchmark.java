package dev.wharf.benchmarks;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.Message;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.security.AclFile;
import dev.wharf.security.Action;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Policy;
import dev.wharf.security.User;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What security costs a producer: send throughput with every request signed and checked against the users file
 * ({@code aclEnable=true}), and with TLS on the NameServer and broker ports ({@code tlsMode=enforcing}), each
 * against plain in the same run. Runs alternate plain, ACL, TLS, then ACL, TLS, plain, ... (each kind takes each
 * place of a round in turn); each is a fresh NameServer
 * and broker (both with the run's security), producer threads sending 1 KiB messages synchronously. The medians
 * of the runs of each kind are compared, since single runs on a shared machine swing widely.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.SecurityBenchmark
 * -Dexec.args="--rounds 5 --seconds 8"}. Options: {@code --seconds} per run (default 10, after a 3 s warm-up),
 * {@code --rounds} (default 3), {@code --threads} (default 4), {@code --dir} (default: a temporary folder, deleted
 * afterwards). The test certificate is made with the JDK's keytool in that folder.
 */
public final class SecurityBenchmark {

    private static final String TOPIC = "BenchSecurity";
    private static final String PASSWORD = "bench-password-1";
    private static final String STORE_PASSWORD = "bench-store-pass";
    private static final long WARM_UP_MILLIS = 3_000;

    /** The security of one run. */
    private enum Mode {
        PLAIN, ACL, TLS
    }

    private Path baseDir;
    private boolean deleteBase;
    private int seconds = 10;
    private int rounds = 3;
    private int threads = 4;
    private int runNumber;
    private Path aclFile;
    private Path keyStore;
    private Path certificate;
    /** CPU time of this process (client and servers) per message sent in the last run, microseconds. */
    private double lastCpuMicros;

    public static void main(String[] args) throws Exception {
        SecurityBenchmark bench = new SecurityBenchmark();
        bench.parse(args);
        Bench.runThenExit(bench::run, bench.deleteBase ? bench.baseDir : null);
    }

    private void parse(String[] args) throws IOException {
        BenchArgs a = BenchArgs.parse(args, List.of("--dir", "--seconds", "--rounds", "--threads"));
        seconds = a.integer("--seconds", seconds);
        rounds = a.integer("--rounds", rounds);
        threads = a.integer("--threads", threads);
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1");
        }
        baseDir = a.dir("wharf-security-bench");
        deleteBase = a.temporaryDir();
    }

    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "Wharf security benchmark: %d thread(s), %d s per run, %d round(s), %d"
                + " CPU(s)%n", threads, seconds, rounds, Runtime.getRuntime().availableProcessors());
        aclFile = baseDir.resolve("acl.json");
        AclFile.write(aclFile, List.of(
                new User("broker", PasswordHasher.hash("broker", PASSWORD.toCharArray()), false,
                        List.of(Policy.allow("cluster:*", Action.ADMIN))),
                new User("producer", PasswordHasher.hash("producer", PASSWORD.toCharArray()), false,
                        List.of(Policy.allow("topic:" + TOPIC, Action.PUB)))));
        keyStore = baseDir.resolve("bench.p12");
        certificate = baseDir.resolve("bench.pem");
        keytool("-genkeypair", "-alias", "bench", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=bench", "-ext", "san=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", keyStore.toString(), "-storepass", STORE_PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "bench", "-keystore", keyStore.toString(), "-storetype", "PKCS12",
                "-storepass", STORE_PASSWORD, "-file", certificate.toString());
        double[][] rates = new double[Mode.values().length][rounds];
        double[][] cpu = new double[Mode.values().length][rounds];
        for (int r = 0; r < rounds; r++) {
            Mode[] modes = Mode.values();
            for (int i = 0; i < modes.length; i++) {
                Mode mode = modes[(i + r) % modes.length]; // each kind takes each place in a round in turn
                rates[mode.ordinal()][r] = sendRate(mode);
                cpu[mode.ordinal()][r] = lastCpuMicros;
            }
            double plain = rates[Mode.PLAIN.ordinal()][r];
            System.out.printf(Locale.ROOT, "round %d: plain %.0f msg/s, ACL %.0f msg/s (%.3fx), TLS %.0f msg/s"
                    + " (%.3fx)%n", r + 1, plain, rates[Mode.ACL.ordinal()][r], rates[Mode.ACL.ordinal()][r] / plain,
                    rates[Mode.TLS.ordinal()][r], rates[Mode.TLS.ordinal()][r] / plain);
            System.out.printf(Locale.ROOT, "round %d CPU per send (this process, client and servers): plain %.1f us,"
                    + " ACL %.1f us, TLS %.1f us%n", r + 1, cpu[Mode.PLAIN.ordinal()][r], cpu[Mode.ACL.ordinal()][r],
                    cpu[Mode.TLS.ordinal()][r]);
        }
        double plain = Bench.median(rates[Mode.PLAIN.ordinal()]);
        double acl = Bench.median(rates[Mode.ACL.ordinal()]);
        double tls = Bench.median(rates[Mode.TLS.ordinal()]);
        System.out.printf(Locale.ROOT, "send TPS medians: plain %.0f, ACL %.0f, TLS %.0f msg/s%n", plain, acl, tls);
        System.out.printf(Locale.ROOT, "ACL / plain: %.3fx (target >= 0.95); TLS / plain: %.3fx (target >= 0.7)%n",
                acl / plain, tls / plain);
        System.out.printf(Locale.ROOT, "CPU per send medians: plain %.1f us, ACL %.1f us, TLS %.1f us%n",
                Bench.median(cpu[Mode.PLAIN.ordinal()]), Bench.median(cpu[Mode.ACL.ordinal()]), Bench.median(cpu[Mode.TLS.ordinal()]));
    }

    private void secure(NettyServerConfig netty, Mode mode) {
        if (mode == Mode.ACL) {
            netty.setAclEnable(true);
            netty.setAclFile(aclFile.toString());
        } else if (mode == Mode.TLS) {
            netty.setTlsMode("enforcing");
            netty.setTlsServerCertPath(keyStore.toString());
            netty.setTlsServerKeyPassword(STORE_PASSWORD);
        }
    }

    private double sendRate(Mode mode) throws Exception {
        Path dir = baseDir.resolve("run" + (++runNumber));
        NettyServerConfig nsNetty = new NettyServerConfig();
        nsNetty.setListenPort(0);
        secure(nsNetty, mode);
        NameServer nameServer = new NameServer(new NameServerConfig(), nsNetty);
        nameServer.start();
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(dir.toString());
        s.store().setMappedFileSizeCommitLog(256 * 1024 * 1024);
        s.netty().setListenPort(0);
        s.broker().setBrokerName("bench-security");
        s.broker().setDefaultTopicQueueNums(8);
        s.broker().setNamesrvAddr(nameServer.address());
        secure(s.netty(), mode);
        if (mode == Mode.ACL) {
            s.broker().innerClient().setInnerClientAuthenticationCredentials("broker:" + PASSWORD);
        } else if (mode == Mode.TLS) {
            s.broker().innerClient().setInnerClientTlsEnable(true);
            s.broker().innerClient().setInnerClientTlsTrustCertPath(certificate.toString());
        }
        Broker broker = new Broker(s);
        Producer producer = null;
        try {
            broker.start();
            broker.topics().createIfAbsent(TOPIC, 8);
            broker.registerWithNameServers().join();
            ClientConfig config = new ClientConfig();
            config.setNamesrvAddr(nameServer.address());
            config.setInstanceName("security-bench-" + runNumber);
            if (mode == Mode.ACL) {
                config.withCredentials("producer", PASSWORD);
            } else if (mode == Mode.TLS) {
                config.setTlsEnable(true);
                config.setTlsTrustCertPath(certificate.toString());
            }
            producer = new Producer("bench-security", config);
            producer.start();
            return drive(producer);
        } finally {
            if (producer != null) {
                producer.shutdown();
            }
            broker.shutdown();
            nameServer.shutdown();
            Bench.deleteTree(dir);
        }
    }

    private double drive(Producer producer) throws InterruptedException {
        TimedSenders.Result r = TimedSenders.run("security-bench", threads, 1024, WARM_UP_MILLIS, seconds * 1_000L,
                body -> producer.send(new Message(TOPIC, body)).sendStatus() == SendStatus.SEND_OK ? 1 : 0);
        if (r.messages() == 0) {
            throw new IllegalStateException("no send succeeded (" + r.failures() + " failed): the run's security"
                    + " set-up is broken");
        }
        lastCpuMicros = r.cpuMicrosPerMessage();
        return r.perSecond();
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + output);
        }
    }
}
