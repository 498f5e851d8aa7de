package dev.wharf.remoting.auth;

import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.PipelineHook;
import dev.wharf.remoting.tls.TlsServer;
import dev.wharf.security.AccessController;
import dev.wharf.security.AclStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs a server's security from its settings: TLS on the port, and the {@link AclGuard} when authentication is
 * on. A server that binds anything but loopback without authentication gets a loud warning, once, at start.
 */
public final class ServerSecurity {

    private static final Logger log = LoggerFactory.getLogger(ServerSecurity.class);

    private final AclGuard guard;
    private final AclStore users;
    private final boolean tls;
    private final AccessController access;

    private ServerSecurity(AclGuard guard, AclStore users, boolean tls, AccessController access) {
        this.guard = guard;
        this.users = users;
        this.tls = tls;
        this.access = access;
    }

    /**
     * Installs TLS and the guard on {@code server} (before it starts).
     *
     * @param defaultAclFile the users file when {@code aclFile} is empty; null when the server has no default
     * @param role           "broker" or "NameServer", for messages
     * @throws IllegalArgumentException inconsistent settings (authorization without authentication, no users file,
     *                                  missing TLS files); the message names the setting
     * @throws UncheckedIOException     the users file exists but cannot be read or is invalid
     */
    public static ServerSecurity install(NettyRemotingServer server, NettyServerConfig config, Path defaultAclFile,
                                         String role) {
        if (config.isAuthorizationEnabled() && !config.isAuthenticationEnabled()) {
            throw new IllegalArgumentException("authorizationEnabled=true needs authenticationEnabled=true (rights"
                    + " belong to authenticated users); set both, or aclEnable=true");
        }
        PipelineHook tlsHook = TlsServer.hook(config);
        if (tlsHook != null) {
            server.setPipelineHook(tlsHook);
        }
        AclGuard guard = null;
        AclStore users = null;
        AccessController access = null;
        if (config.isAuthenticationEnabled()) {
            Path file = !config.getAclFile().isEmpty() ? Path.of(config.getAclFile()) : defaultAclFile;
            if (file == null) {
                throw new IllegalArgumentException("authenticationEnabled=true on the " + role + " needs aclFile, the"
                        + " users and policies file (create it with 'wharf admin user-create --acl-file <file>')");
            }
            try {
                users = new AclStore(file, System::currentTimeMillis);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot load the users of the " + role + ": " + e.getMessage(), e);
            }
            if (users.size() == 0) {
                log.warn("The {} requires authentication but {} holds no users yet: every request is refused until"
                        + " one is added with 'wharf admin user-create --acl-file {}'", role, file, file);
            }
            access = new AccessController(users, config.getAuthReplayWindowMillis(), System::currentTimeMillis);
            guard = new AclGuard(access, config.isAuthorizationEnabled(), config.isAclSignEveryRequest());
            server.setRequestGuard(guard);
        } else if (!isLoopback(config.getBindAddress())) {
            log.warn("SECURITY WARNING: the {} listens on {} without authentication (authenticationEnabled=false):"
                    + " anyone who can reach the port can send, read, reset offsets, delete topics and register"
                    + " brokers. Set aclEnable=true with a users file, or bind 127.0.0.1.", role,
                    config.getBindAddress());
        }
        return new ServerSecurity(guard, users, tlsHook != null, access);
    }

    /** Whether requests must be signed. */
    public boolean authenticated() {
        return guard != null;
    }

    /** The guard, or null without authentication. */
    public AclGuard guard() {
        return guard;
    }

    /** What decides who a peer is and what it may do (the same users as the port's), or null without authentication. */
    public AccessController access() {
        return access;
    }

    /** The users, or null without authentication. */
    public AclStore users() {
        return users;
    }

    /** A short phrase for the ready line: "authenticated, TLS" / "unauthenticated". */
    public String describe() {
        return (guard != null ? "authenticated" : "unauthenticated") + (tls ? ", TLS" : "");
    }

    static boolean isLoopback(String bindAddress) {
        try {
            return InetAddress.getByName(bindAddress).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
