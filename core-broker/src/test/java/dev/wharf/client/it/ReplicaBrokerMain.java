package dev.wharf.client.it;

import dev.wharf.broker.Broker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A broker of a group in its own process, for tests that kill it: registers with the NameServer, writes its
 * address to the given file once registered, and runs until the process is killed.
 * Arguments: storeDir addressFile namesrvAddr brokerName brokerId.
 */
public final class ReplicaBrokerMain {

    private ReplicaBrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        Broker broker = Replicas.start(Path.of(args[0]), args[2], args[3], Long.parseLong(args[4]));
        Path file = Path.of(args[1]);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, broker.address(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        Thread.currentThread().join();
    }
}
