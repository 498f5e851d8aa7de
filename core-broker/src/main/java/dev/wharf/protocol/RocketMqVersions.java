package dev.wharf.protocol;

/**
 * RocketMQ release numbers as its clients carry them in the header's {@code version} field (the position of the
 * release in RocketMQ's list of versions). A RocketMQ client learns a broker's version from the answer to its
 * heartbeat and turns some features on only for brokers new enough: SQL92 filtering, for one, needs 4.1.0 or later.
 */
public final class RocketMqVersions {

    /**
     * RocketMQ 4.9.4: what a Wharf broker answers heartbeats with. Its remoting requests are the ones Wharf serves;
     * the 5.x-only ones (static topics, heartbeat v2, the proxy's) are not claimed.
     */
    public static final int V4_9_4 = 401;

    private RocketMqVersions() {
    }

    /**
     * Whether a request comes from a RocketMQ client or tool, which wants RocketMQ's body shapes in the answer (maps
     * keyed by queue where Wharf sends lists). RocketMQ's clients put their release in every request's
     * {@code version}; Wharf's own clients send {@link RemotingCommand#DEFAULT_VERSION}, 0.
     */
    public static boolean fromRocketMqClient(RemotingCommand request) {
        return request.version() > RemotingCommand.DEFAULT_VERSION;
    }
}
