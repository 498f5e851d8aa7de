package dev.wharf.remoting;

/** Settings of a {@link NettyRemotingClient}; property names follow RocketMQ's where they exist. */
public class NettyClientConfig extends NettyEndpointConfig {

    private int connectTimeoutMillis = 3000;

    public NettyClientConfig() {
        super(1);
    }

    /** How long a connection attempt may take. */
    public int getConnectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    public void setConnectTimeoutMillis(int connectTimeoutMillis) {
        this.connectTimeoutMillis = atLeast("connectTimeoutMillis", connectTimeoutMillis, 1);
    }
}
