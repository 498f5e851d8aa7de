package dev.wharf.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.namesrv.NameServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A short run against a real NameServer and broker in this JVM: the counts add up (no timing is asserted). */
class LoadRunTest {

    @TempDir
    Path dir;

    @Test
    void aShortRunSendsConsumesAndAccountsForEveryMessage() throws Exception {
        NameServer nameServer = NameServer.onPort(0);
        nameServer.start();
        BrokerSettings settings = BrokerSettings.defaults();
        settings.store().setStorePathRootDir(dir.toString());
        settings.store().setMappedFileSizeCommitLog(64 * 1024 * 1024);
        settings.store().setMaxHashSlotNum(2_000);
        settings.store().setMaxIndexNum(20_000);
        settings.netty().setListenPort(0);
        settings.broker().setNamesrvAddr(nameServer.address());
        Broker broker = new Broker(settings);
        broker.start();
        broker.registerWithNameServers().join();
        try {
            LoadTool options = new LoadTool();
            LoadTool.commandLine(options).parseArgs("--threads", "2", "--size", "100", "--warmup", "1", "--duration", "2",
                    "--queues", "2", "--consume-threads", "2");
            StringWriter text = new StringWriter();
            LoadResult r = new LoadRun(options, new PrintWriter(text, true)).run("test", nameServer.address());

            assertThat(r.sent()).as(text.toString()).isPositive();
            assertThat(r.errors()).isZero();
            assertThat(r.send().count()).isEqualTo(r.sent());
            assertThat(r.consumed()).isPositive();
            assertThat(r.backlog()).isZero();
            assertThat(r.endToEnd().count()).isPositive();
            assertThat(r.seconds()).isGreaterThanOrEqualTo(2.0);
            assertThat(text.toString()).contains("msg/s", "send", "consume");

            StringWriter report = new StringWriter();
            LoadReport.result(new PrintWriter(report, true), r);
            assertThat(report.toString()).contains("== test:", "msg/s", "p999", "backlog at end 0");
        } finally {
            broker.shutdown();
            nameServer.shutdown();
        }
    }

    @Test
    void badOptionsAreRefusedWithTheReason() {
        StringWriter err = new StringWriter();
        CommandLine cmd = LoadTool.commandLine(new LoadTool()).setErr(new PrintWriter(err, true));
        assertThat(cmd.execute("--threads", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--threads must be 1..1024, got 0");

        err.getBuffer().setLength(0);
        assertThat(cmd.execute("--embedded", "fast")).isEqualTo(2);
        assertThat(err.toString()).contains("--embedded takes async and/or sync, got fast");
    }

    @Test
    void ratiosAreToTheFirstRun() {
        assertThat(LoadReport.ratio(50, 100)).isEqualTo("0.50x");
        assertThat(LoadReport.ratio(5, 0)).isEqualTo("-");
        assertThat(LoadReport.ms(1_500)).isEqualTo("1.500");
        assertThat(LoadReport.ms(25_000)).isEqualTo("25.0");
    }
}
