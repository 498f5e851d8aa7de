package dev.wharf.benchmarks.sbs;

import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;

/**
 * One broker configuration of the comparison. {@link #start} starts a broker on a fresh store before anything is
 * timed and hands back a factory for it; {@link #stop} stops it, so every round begins on an empty store.
 */
interface Provider {

    /** The name printed beside each result, e.g. {@code artemis-tuned}. */
    String name();

    /**
     * @param dir an empty folder this start may store in
     * @return a connection factory for the running broker
     */
    ConnectionFactory start(Path dir) throws Exception;

    void stop() throws Exception;
}
