package dev.wharf.remoting;

import dev.wharf.protocol.RemotingFrameDescriptor;
import io.netty.util.internal.PlatformDependent;
import java.util.Objects;

/** Settings of a {@link NettyRemotingServer}; property names follow RocketMQ's where they exist. */
public class NettyServerConfig extends NettyEndpointConfig {

    private int listenPort = 10911;
    private String bindAddress = "127.0.0.1";
    private int backlog = 1024;
    private long maxPartialFrameBytes = defaultMaxPartialFrameBytes();

    public NettyServerConfig() {
        super(3);
    }

    /** TCP port to listen on; 0 picks a free port (read it back with {@link NettyRemotingServer#localPort()}). */
    public int getListenPort() {
        return listenPort;
    }

    public void setListenPort(int listenPort) {
        if (listenPort < 0 || listenPort > 65_535) {
            throw new IllegalArgumentException("listenPort must be 0..65535 (0 = any free port), got " + listenPort);
        }
        this.listenPort = listenPort;
    }

    /** Address to listen on; loopback by default, "0.0.0.0" for every interface. */
    public String getBindAddress() {
        return bindAddress;
    }

    public void setBindAddress(String bindAddress) {
        Objects.requireNonNull(bindAddress, "bindAddress");
        if (bindAddress.isBlank()) {
            throw new IllegalArgumentException("bindAddress must be an address such as 127.0.0.1 or 0.0.0.0");
        }
        this.bindAddress = bindAddress.trim();
    }

    /** Pending connections the kernel queues before they are accepted. */
    public int getBacklog() {
        return backlog;
    }

    public void setBacklog(int backlog) {
        this.backlog = atLeast("backlog", backlog, 1);
    }

    /**
     * The most bytes of buffers holding unfinished frames all connections may keep together; when they would
     * keep more, the connections holding the most are closed (one log line each). By default a quarter of the
     * direct memory the JVM may use, between two default-sized frames and 256 MiB. It must be at least twice
     * {@code maxFrameLength} (a frame's buffer grows ahead of its bytes); raise it when many clients send large
     * messages at once.
     */
    public long getMaxPartialFrameBytes() {
        return maxPartialFrameBytes;
    }

    public void setMaxPartialFrameBytes(long maxPartialFrameBytes) {
        if (maxPartialFrameBytes < 1024) {
            throw new IllegalArgumentException("maxPartialFrameBytes must be at least 1024, got "
                    + maxPartialFrameBytes);
        }
        this.maxPartialFrameBytes = maxPartialFrameBytes;
    }

    private static long defaultMaxPartialFrameBytes() {
        long quarterOfDirect = PlatformDependent.maxDirectMemory() / 4;
        return Math.max(2L * RemotingFrameDescriptor.DEFAULT_MAX_FRAME_LENGTH, Math.min(256L << 20, quarterOfDirect));
    }
}
