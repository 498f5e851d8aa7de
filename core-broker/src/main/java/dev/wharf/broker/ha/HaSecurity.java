package dev.wharf.broker.ha;

import dev.wharf.security.AccessController;
import dev.wharf.security.Credentials;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * TLS and authentication of the HA port, from the broker's own settings: the master's port speaks TLS as its
 * remoting port does ({@code tlsMode}, {@code tlsServer*}); a slave connects with TLS when
 * {@code innerClientTlsEnable} is set, as it reaches NameServers. With authentication on (aclEnable) a slave proves
 * it holds the credential of a user of the master's users file ({@code innerClientAuthenticationCredentials}) and
 * the master proves it holds that user's key too, so neither a rogue replica nor a rogue master gets past the
 * handshake (see {@link HaAuth}); nothing of the log is sent before both proofs checked out.
 *
 * <p>Immutable; thread-safe.
 */
public final class HaSecurity {

    /** Plain and unauthenticated, the default. */
    public static final HaSecurity NONE = new Builder().build();

    /** How long a TLS handshake may take before the connection is given up. */
    private static final int TLS_HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    /** The first byte of a TLS handshake record (content type 22); an HA frame starts with 'W'. */
    private static final int TLS_HANDSHAKE_RECORD = 22;

    private final SSLContext serverTls;
    private final boolean tlsOnly;
    private final boolean needClientAuth;
    private final SSLContext clientTls;
    private final boolean verifyHostname;
    private final AccessController access;
    private final boolean authorize;
    private final String clusterName;
    private final Credentials credentials;

    private HaSecurity(Builder b) {
        this.serverTls = b.serverTls;
        this.tlsOnly = b.tlsOnly;
        this.needClientAuth = b.needClientAuth;
        this.clientTls = b.clientTls;
        this.verifyHostname = b.verifyHostname;
        this.access = b.access;
        this.authorize = b.authorize;
        this.clusterName = b.clusterName;
        this.credentials = b.credentials;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A short phrase for logs: "TLS, authenticated" / "plain, unauthenticated". */
    String describe(boolean master) {
        boolean tls = master ? serverTls != null : clientTls != null;
        boolean auth = master ? access != null : credentials != null;
        return (tls ? (master && !tlsOnly ? "TLS or plain" : "TLS") : "plain") + ", "
                + (auth ? "authenticated" : "unauthenticated");
    }

    /**
     * The master's side, on the connection's reader thread before anything else: TLS as configured, then the
     * slave's proof. Returns with the slave's HANDSHAKE (its first frame after authentication) read into
     * {@code channel}.
     *
     * @throws HaProtocolException the slave did not speak TLS where it must, or failed authentication; nothing was
     *                             sent to it but the challenge
     * @throws SSLException        the TLS handshake failed
     */
    void accept(FrameChannel channel, String brokerName) throws IOException, HaProtocolException {
        if (serverTls != null) {
            SocketChannel socket = channel.socket();
            ByteBuffer first = ByteBuffer.allocate(1);
            while (first.hasRemaining()) {
                if (socket.read(first) < 0) {
                    throw new EOFException(channel.peer() + " closed the connection before it sent anything");
                }
            }
            byte b = first.get(0);
            if (b == TLS_HANDSHAKE_RECORD) {
                SSLSocket tls = (SSLSocket) serverTls.getSocketFactory().createSocket(socket.socket(),
                        new ByteArrayInputStream(new byte[] {b}), true);
                tls.setUseClientMode(false);
                tls.setNeedClientAuth(needClientAuth);
                handshake(tls);
                channel.use(HaStream.tls(tls));
            } else {
                channel.use(HaStream.plain(socket, first.flip()));
                if (tlsOnly) {
                    throw new HaProtocolException(HaFrame.REFUSED_TLS, "the HA port of " + brokerName + " takes TLS"
                            + " only (tlsMode=enforcing) but " + channel.peer() + " spoke plain; set"
                            + " innerClientTlsEnable=true (with innerClientTlsTrustCertPath) on the slave");
                }
            }
        }
        channel.readFrame();
        if (access != null) {
            HaAuth.master(channel, access, authorize, clusterName, brokerName);
            channel.readFrame();
        } else if (channel.type() == HaFrame.TYPE_AUTH) {
            throw new HaProtocolException(HaFrame.REFUSED_AUTHENTICATION, "the slave at " + channel.peer()
                    + " authenticates but this master of " + brokerName + " does not (aclEnable is off here): turn"
                    + " aclEnable on for every broker of the group, or off for all");
        }
    }

    /**
     * The slave's side, right after connecting to {@code host:port}: TLS as configured, then the challenge and
     * proof. Returns once the master proved itself and this slave's proof was sent: the HANDSHAKE comes next.
     *
     * @throws HaProtocolException the master refused, or could not prove it holds the user's key
     * @throws SSLException        the TLS handshake failed (an untrusted certificate, a plain port, ...)
     */
    void connect(FrameChannel channel, String host, int port, String brokerName)
            throws IOException, HaProtocolException {
        if (clientTls != null) {
            SSLSocket tls = (SSLSocket) clientTls.getSocketFactory().createSocket(channel.socket().socket(), host,
                    port, true);
            tls.setUseClientMode(true);
            if (verifyHostname) {
                SSLParameters parameters = tls.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                tls.setSSLParameters(parameters);
            }
            handshake(tls);
            channel.use(HaStream.tls(tls));
        }
        if (credentials != null) {
            HaAuth.slave(channel, credentials, brokerName, host + ":" + port);
        }
    }

    private static void handshake(SSLSocket tls) throws IOException {
        tls.setSoTimeout(TLS_HANDSHAKE_TIMEOUT_MILLIS);
        tls.startHandshake();
        tls.setSoTimeout(0);
    }

    /** Collects the settings of a {@link HaSecurity}. */
    public static final class Builder {

        private SSLContext serverTls;
        private boolean tlsOnly;
        private boolean needClientAuth;
        private SSLContext clientTls;
        private boolean verifyHostname;
        private AccessController access;
        private boolean authorize;
        private String clusterName = "";
        private Credentials credentials;

        private Builder() {
        }

        /**
         * TLS on the master's HA port.
         *
         * @param context        the server's TLS context, or null for plain
         * @param permissive     whether plain slaves are taken too ({@code tlsMode=permissive})
         * @param needClientAuth whether slaves must show a certificate the context trusts (mutual TLS)
         */
        public Builder serverTls(SSLContext context, boolean permissive, boolean needClientAuth) {
            this.serverTls = context;
            this.tlsOnly = context != null && !permissive;
            this.needClientAuth = needClientAuth;
            return this;
        }

        /** TLS from a slave to its master: {@code context} null for plain. */
        public Builder clientTls(SSLContext context, boolean verifyHostname) {
            this.clientTls = context;
            this.verifyHostname = verifyHostname;
            return this;
        }

        /**
         * Makes a master require authenticated slaves.
         *
         * @param authorize   whether the slave's user also needs ADMIN on {@code cluster:<clusterName>} (the right
         *                    a broker needs to register)
         */
        public Builder authenticateSlaves(AccessController access, boolean authorize, String clusterName) {
            this.access = access;
            this.authorize = authorize;
            this.clusterName = clusterName;
            return this;
        }

        /** What a slave authenticates with (null: it does not). */
        public Builder credentials(Credentials credentials) {
            this.credentials = credentials;
            return this;
        }

        public HaSecurity build() {
            return new HaSecurity(this);
        }
    }
}
