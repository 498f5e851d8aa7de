package dev.wharf.metrics;

import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.RequestObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Requests answered, per request code and response code, and their latency per request code. Request codes below
 * {@value #CODES} and response codes below {@value #RESPONSES} get their own labels; any other code is counted under
 * the label {@code OTHER}, so a client sending made-up codes cannot grow the series. Each pair's counter is created
 * the first time the pair is seen and read lock-free from an array afterwards. Thread-safe.
 */
final class RequestMeters implements RequestObserver {

    static final int CODES = 1024;
    static final int RESPONSES = 256;
    /** Buckets of the latency histograms: from a tenth of a millisecond to ten seconds. */
    static final Duration[] LATENCY_BUCKETS = {Duration.ofNanos(100_000), Duration.ofNanos(500_000),
            Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(10)};

    private final MeterRegistry registry;
    private final String prefix;
    /** Per request code (index CODES = other): the latency timer. */
    private final AtomicReferenceArray<Timer> timers = new AtomicReferenceArray<>(CODES + 1);
    /** Per request code: counters per response code (index RESPONSES = other). */
    private final AtomicReferenceArray<AtomicReferenceArray<Counter>> counters = new AtomicReferenceArray<>(CODES + 1);

    /** @param prefix the meter name prefix: {@code wharf} for a broker, {@code wharf.namesrv} for a NameServer */
    RequestMeters(MeterRegistry registry, String prefix) {
        this.registry = registry;
        this.prefix = prefix;
    }

    @Override
    public void served(int requestCode, int responseCode, long nanos) {
        int r = requestCode >= 0 && requestCode < CODES ? requestCode : CODES;
        int s = responseCode >= 0 && responseCode < RESPONSES ? responseCode : RESPONSES;
        AtomicReferenceArray<Counter> byResponse = counters.get(r);
        Counter counter = byResponse == null ? null : byResponse.get(s);
        if (counter == null) {
            counter = resolve(r, s);
        }
        counter.increment();
        Timer timer = timers.get(r);
        if (timer == null) {
            timer = resolveTimer(r);
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    private synchronized Counter resolve(int r, int s) {
        AtomicReferenceArray<Counter> byResponse = counters.get(r);
        if (byResponse == null) {
            byResponse = new AtomicReferenceArray<>(RESPONSES + 1);
            counters.set(r, byResponse);
        }
        Counter c = byResponse.get(s);
        if (c == null) {
            c = Counter.builder(prefix + ".requests").description("Requests answered, by request and response code")
                    .tag("request", requestLabel(r)).tag("response", responseLabel(s)).register(registry);
            byResponse.set(s, c);
        }
        return c;
    }

    private synchronized Timer resolveTimer(int r) {
        Timer t = timers.get(r);
        if (t == null) {
            t = Timer.builder(prefix + ".request.latency")
                    .description("Time from a request's arrival to its response being written (held pulls: their whole wait)")
                    .tag("request", requestLabel(r)).serviceLevelObjectives(LATENCY_BUCKETS).register(registry);
            timers.set(r, t);
        }
        return t;
    }

    private static String requestLabel(int r) {
        return r == CODES || !RequestCode.NAMES.isKnown(r) ? (r == CODES ? "OTHER" : "CODE_" + r) : RequestCode.NAMES.name(r);
    }

    private static String responseLabel(int s) {
        return s == RESPONSES ? "OTHER" : ResponseCode.NAMES.isKnown(s) ? ResponseCode.NAMES.name(s) : "CODE_" + s;
    }
}
