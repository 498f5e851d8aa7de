package dev.wharf.broker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A broker in its own JVM, for tests that kill it without a shutdown: {@code args = storeDir addressFile
 * flushDelayOffsetInterval}.
 * Writes {@code ip:port} to the address file once it listens, and exits when its standard input closes (so it
 * never outlives the test JVM).
 */
public final class ScheduleChildBroker {

    private ScheduleChildBroker() {
    }

    public static void main(String[] args) throws IOException {
        Broker broker = BrokerFixture.start(Path.of(args[0]), s -> {
            s.broker().schedule().setMessageDelayLevel(ScheduleTestSupport.TEST_LEVELS);
            s.broker().schedule().setFlushDelayOffsetInterval(Integer.parseInt(args[2]));
        });
        Path addressFile = Path.of(args[1]);
        Path tmp = addressFile.resolveSibling(addressFile.getFileName() + ".tmp");
        Files.writeString(tmp, broker.address());
        Files.move(tmp, addressFile, StandardCopyOption.ATOMIC_MOVE);
        InputStream in = System.in;
        while (in.read() >= 0) {
            // wait for the parent to close the pipe
        }
        broker.shutdown();
    }
}
