package dev.wharf.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Broker configuration files for tests: small store files, so that a store costs little disk and time. */
public final class TestStores {

    private TestStores() {
    }

    /** Writes a broker.conf with small files (and the extra lines) and returns its path. */
    public static Path smallConfig(Path dir, String... extraLines) throws IOException {
        StringBuilder text = new StringBuilder()
                .append("# small files for tests\n")
                .append("mappedFileSizeCommitLog=8388608\n")
                .append("mappedFileSizeConsumeQueue=400000\n")
                .append("maxHashSlotNum=2000\n")
                .append("maxIndexNum=20000\n")
                .append("defaultTopicQueueNums=4\n")
                .append("sendMessageThreadPoolNums=2\n")
                .append("pullMessageThreadPoolNums=4\n")
                .append("selectorThreads=1\n");
        for (String line : extraLines) {
            text.append(line).append('\n');
        }
        Files.createDirectories(dir);
        Path file = dir.resolve("broker-" + System.nanoTime() + ".conf");
        Files.writeString(file, text);
        return file;
    }
}
