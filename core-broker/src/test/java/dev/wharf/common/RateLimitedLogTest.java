package dev.wharf.common;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.wharf.common.util.RateLimitedLog;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RateLimitedLogTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final Logger logger = (Logger) LoggerFactory.getLogger("rate-limited-log-test");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private RateLimitedLog log;

    @BeforeEach
    void attach() {
        appender.start();
        logger.addAppender(appender);
        log = new RateLimitedLog(logger, 10, TimeUnit.SECONDS, clock::get);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(appender);
    }

    @Test
    void oneLinePerKeyPerIntervalWithTheCountOfTheSuppressed() {
        for (int i = 0; i < 20_000; i++) {
            log.warn("bad-frame", "bad frame {} from {}", i, "peer");
        }
        assertThat(appender.list).hasSize(1);
        assertThat(appender.list.get(0).getFormattedMessage()).isEqualTo("bad frame 0 from peer");

        clock.addAndGet(TimeUnit.SECONDS.toNanos(9));
        log.warn("bad-frame", "bad frame {}", "late");
        assertThat(appender.list).hasSize(1);

        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        log.warn("bad-frame", "bad frame {}", "next");
        assertThat(appender.list).hasSize(2);
        assertThat(appender.list.get(1).getFormattedMessage())
                .isEqualTo("bad frame next (20000 more like this suppressed)");
        assertThat(log.linesWritten()).isEqualTo(2);
        assertThat(log.linesSuppressed()).isEqualTo(20_000);
    }

    @Test
    void countsStillPendingWhenAFloodStopsAreFlushedOnceTheIntervalPassed() {
        for (int i = 0; i < 500; i++) {
            log.warn("closed", "closing {}", "peer-" + i);
        }
        log.flush();
        assertThat(appender.list).hasSize(1);

        clock.addAndGet(TimeUnit.SECONDS.toNanos(10));
        log.flush();
        log.flush();
        assertThat(appender.list).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("closing peer-0", "closing peer-499 (498 more like this suppressed)");
        assertThat(log.linesWritten() + log.linesSuppressed()).isEqualTo(500);

        clock.addAndGet(TimeUnit.SECONDS.toNanos(10));
        log.flush();
        assertThat(appender.list).as("nothing pending, nothing written").hasSize(2);
    }

        @Test
    void keysAreLimitedIndependentlyAndErrorsKeepTheirLevel() {
        log.warn("a", "first a");
        log.warn("b", "first b");
        log.warn("a", "second a");
        log.error("c", "first c");
        assertThat(appender.list).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("first a", "first b", "first c");
        assertThat(appender.list.get(2).getLevel()).isEqualTo(Level.ERROR);
    }

    @Test
    void keysBeyondTheCapShareOneOverflowKey() {
        for (int i = 0; i < RateLimitedLog.MAX_KEYS + 100; i++) {
            log.warn("key-" + i, "line {}", i);
        }
        // the first MAX_KEYS keys each write once, the rest share one key and write once together
        assertThat(appender.list).hasSize(RateLimitedLog.MAX_KEYS + 1);
    }
}
