package dev.wharf.broker;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A broker in its own process, for tests that kill it: starts on a store folder with port 0, writes its
 * address to the given file once it listens, and runs until the process is destroyed.
 * Arguments: storeDir addressFile.
 */
public final class ChildBrokerMain {

    private ChildBrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        Broker broker = BrokerFixture.start(Path.of(args[0]), s -> {
            s.broker().pop().setPopLeaseScanInterval(50);
            // no periodic snapshot: after the kill everything must come back from the ack log
            s.broker().pop().setAckStateSnapshotInterval(3_600_000);
        });
        Path file = Path.of(args[1]);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, broker.address(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        Thread.currentThread().join();
    }
}
