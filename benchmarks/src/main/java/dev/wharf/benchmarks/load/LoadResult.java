package dev.wharf.benchmarks.load;

/**
 * What one run measured. Rates are per second of the measured window.
 *
 * @param label       what the run ran against (e.g. the flush mode of the server it started)
 * @param sent        sends that returned inside the window (0 when the run only consumed)
 * @param errors      sends that failed during the whole run
 * @param firstError  the first failure's message, or null
 * @param send        send latencies in microseconds
 * @param consumed    messages received inside the window (0 when the run only produced)
 * @param endToEnd    end-to-end latencies in milliseconds of messages born in the window
 * @param backlog     messages sent during the run and not received when it ended (after up to 10 s of draining)
 * @param loadBefore  the machine's one-minute load average when the run started (-1 if unknown)
 * @param loadAfter   the same when it ended
 */
record LoadResult(String label, double seconds, long sent, long errors, String firstError, LatencyHistogram send,
                  long consumed, LatencyHistogram endToEnd, long backlog, int bodySize, double loadBefore,
                  double loadAfter) {

    double sendTps() {
        return sent / seconds;
    }

    double consumeTps() {
        return consumed / seconds;
    }

    double sendMibPerSecond() {
        return sent * (double) bodySize / seconds / (1024 * 1024);
    }
}
