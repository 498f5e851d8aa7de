package dev.wharf.remoting;

import io.netty.util.HashedWheelTimer;
import java.util.concurrent.TimeUnit;

/**
 * The one timer wheel of every remoting endpoint in the JVM, started by the first endpoint and stopped when the
 * last one shuts down. A wheel is a thread that wakes every tick whether or not anything is due, so a wheel per
 * endpoint cost an application with a hundred connections a hundred threads and ten thousand idle wake-ups a
 * second (and Netty warns past 64 wheels).
 */
final class SharedTimer {

    /** Timeouts fire within one tick of their deadline; 10 ms is plenty for RPC timeouts. */
    private static final long TICK_MILLIS = 10;

    private static HashedWheelTimer timer;
    private static int users;

    private SharedTimer() {
    }

    /** The wheel, started if no endpoint holds it; every call must be matched by one {@link #release()}. */
    static synchronized HashedWheelTimer acquire() {
        if (users++ == 0) {
            timer = new HashedWheelTimer(RemotingExecutors.threadFactory("wharf-remoting-timer"), TICK_MILLIS,
                    TimeUnit.MILLISECONDS, 512);
        }
        return timer;
    }

    /** Stops the wheel when the last endpoint lets it go; its pending timeouts are dropped with it. */
    static synchronized void release() {
        if (users == 0) {
            throw new IllegalStateException("the remoting timer was released more often than acquired");
        }
        if (--users == 0) {
            HashedWheelTimer last = timer;
            timer = null;
            try {
                last.stop();
            } catch (IllegalStateException onTheWheelsOwnThread) {
                // an endpoint shut down from inside a timeout: the wheel cannot wait for its own thread
                RemotingExecutors.threadFactory("wharf-remoting-timer-stop").newThread(last::stop).start();
            }
        }
    }

    /** Endpoints holding the wheel now (tests). */
    static synchronized int users() {
        return users;
    }
}
