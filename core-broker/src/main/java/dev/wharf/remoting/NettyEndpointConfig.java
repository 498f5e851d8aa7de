package dev.wharf.remoting;

import dev.wharf.protocol.RemotingFrameDescriptor;

/**
 * Settings shared by {@link NettyServerConfig} and {@link NettyClientConfig}. JavaBean setters validate
 * their argument and say what a valid value is.
 */
public abstract class NettyEndpointConfig {

    private int selectorThreads;
    private int callbackExecutorThreads = 4;
    private int maxFrameLength = RemotingFrameDescriptor.DEFAULT_MAX_FRAME_LENGTH;
    private int channelMaxIdleTimeSeconds = 120;
    private int socketSndBufSize;
    private int socketRcvBufSize;
    private int asyncSemaphoreValue = 65_535;
    private int onewaySemaphoreValue = 65_535;
    private boolean useEpoll = true;
    private int partialFrameTimeoutMillis = 60_000;

    protected NettyEndpointConfig(int defaultSelectorThreads) {
        this.selectorThreads = defaultSelectorThreads;
    }

    /** I/O (event loop) threads that read, decode, encode and write. */
    public int getSelectorThreads() {
        return selectorThreads;
    }

    public void setSelectorThreads(int selectorThreads) {
        this.selectorThreads = atLeast("selectorThreads", selectorThreads, 1);
    }

    /** Threads that complete asynchronous invocations' futures, keeping user callbacks off I/O threads. */
    public int getCallbackExecutorThreads() {
        return callbackExecutorThreads;
    }

    public void setCallbackExecutorThreads(int callbackExecutorThreads) {
        this.callbackExecutorThreads = atLeast("callbackExecutorThreads", callbackExecutorThreads, 1);
    }

    /** Largest frame accepted, length prefix included; a larger one closes the connection. */
    public int getMaxFrameLength() {
        return maxFrameLength;
    }

    public void setMaxFrameLength(int maxFrameLength) {
        this.maxFrameLength = atLeast("maxFrameLength", maxFrameLength, 1024);
    }

    /** A connection without reads or writes for this long is closed; 0 = never. */
    public int getChannelMaxIdleTimeSeconds() {
        return channelMaxIdleTimeSeconds;
    }

    public void setChannelMaxIdleTimeSeconds(int channelMaxIdleTimeSeconds) {
        this.channelMaxIdleTimeSeconds = atLeast("channelMaxIdleTimeSeconds", channelMaxIdleTimeSeconds, 0);
    }

    /** SO_SNDBUF in bytes; 0 = the operating system's default. */
    public int getSocketSndBufSize() {
        return socketSndBufSize;
    }

    public void setSocketSndBufSize(int socketSndBufSize) {
        this.socketSndBufSize = atLeast("socketSndBufSize", socketSndBufSize, 0);
    }

    /** SO_RCVBUF in bytes; 0 = the operating system's default. */
    public int getSocketRcvBufSize() {
        return socketRcvBufSize;
    }

    public void setSocketRcvBufSize(int socketRcvBufSize) {
        this.socketRcvBufSize = atLeast("socketRcvBufSize", socketRcvBufSize, 0);
    }

    /** Most asynchronous requests in flight at once on this endpoint; more fail with "too much request". */
    public int getAsyncSemaphoreValue() {
        return asyncSemaphoreValue;
    }

    public void setAsyncSemaphoreValue(int asyncSemaphoreValue) {
        this.asyncSemaphoreValue = atLeast("asyncSemaphoreValue", asyncSemaphoreValue, 1);
    }

    /** Most one-way requests being written at once on this endpoint. */
    public int getOnewaySemaphoreValue() {
        return onewaySemaphoreValue;
    }

    public void setOnewaySemaphoreValue(int onewaySemaphoreValue) {
        this.onewaySemaphoreValue = atLeast("onewaySemaphoreValue", onewaySemaphoreValue, 1);
    }

    /** Whether to use the native epoll transport when it is available (Linux); NIO otherwise. */
    public boolean isUseEpoll() {
        return useEpoll;
    }

    public void setUseEpoll(boolean useEpoll) {
        this.useEpoll = useEpoll;
    }

    /**
     * How long a frame may stay unfinished after its first byte arrived before the connection is closed, so that
     * a peer cannot hold a buffer by trickling a frame in (slowloris); 0 = no limit. The default, 60 s, lets a
     * 16 MiB frame arrive at 2.2 Mbit/s.
     */
    public int getPartialFrameTimeoutMillis() {
        return partialFrameTimeoutMillis;
    }

    public void setPartialFrameTimeoutMillis(int partialFrameTimeoutMillis) {
        this.partialFrameTimeoutMillis = atLeast("partialFrameTimeoutMillis", partialFrameTimeoutMillis, 0);
    }

    static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
        return value;
    }
}
