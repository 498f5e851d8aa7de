package dev.wharf.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReadyLineTest {

    @Test
    void addressesAreReadBackFromEachKindOfLine() {
        String ns = ReadyLine.nameServer("127.0.0.1:9876");
        assertThat(ReadyLine.nameServerAddress(ns)).contains("127.0.0.1:9876");
        assertThat(ReadyLine.brokerAddress(ns)).isEmpty();

        String broker = ReadyLine.broker("broker-a", "10.0.0.5:10911", "C1", List.of("10.0.0.1:9876", "10.0.0.2:9876"),
                "/data/store", "SYNC_FLUSH");
        assertThat(ReadyLine.brokerAddress(broker)).contains("10.0.0.5:10911");
        assertThat(ReadyLine.nameServerAddress(broker)).isEmpty();
        assertThat(broker).contains("NameServers 10.0.0.1:9876;10.0.0.2:9876");

        String standalone = ReadyLine.standalone("127.0.0.1:40001", "b-1", "127.0.0.1:40002", "/s", "ASYNC_FLUSH");
        assertThat(ReadyLine.nameServerAddress(standalone)).contains("127.0.0.1:40001");
        assertThat(ReadyLine.brokerAddress(standalone)).contains("127.0.0.1:40002");
    }

    @Test
    void theControllerLineNamesItsClientAddress() {
        String line = ReadyLine.controller("n0", "127.0.0.1:9878", "127.0.0.1:9870", "n0,n1,n2", "/c0");
        assertThat(ReadyLine.controllerAddress(line)).contains("127.0.0.1:9878");
        assertThat(ReadyLine.nameServerAddress(line)).isEmpty();
        assertThat(ReadyLine.brokerAddress(line)).isEmpty();
    }

    @Test
    void otherLinesHaveNoAddresses() {
        assertThat(ReadyLine.nameServerAddress("2026-11-29 INFO NameServer at 1.2.3.4:5 listening")).isEmpty();
        assertThat(ReadyLine.brokerAddress(null)).isEmpty();
        assertThat(ReadyLine.broker("b", "h:1", "c", List.of(), "/s", "ASYNC_FLUSH"))
                .contains("NameServers none: clients cannot find it, give --namesrv");
    }

    @Test
    void theLoggingLevelFollowsTheCommand() {
        assertThat(ServerLogging.commandName(new String[] {"admin", "topics"})).isEqualTo("admin");
        assertThat(ServerLogging.commandName(new String[] {"-h"})).isNull();
        assertThat(ServerLogging.commandName(new String[] {"--verbose", "standalone"})).isEqualTo("standalone");
    }
}
