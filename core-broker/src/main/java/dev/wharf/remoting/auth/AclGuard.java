package dev.wharf.remoting.auth;

import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestGuard;
import dev.wharf.security.AccessController;
import dev.wharf.security.AccessController.Authentication;
import dev.wharf.security.AccessController.SessionOpening;
import dev.wharf.security.RequestSignature;
import dev.wharf.security.Session;
import dev.wharf.security.User;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses requests that do not come from a known user ({@link ResponseCode#AUTHENTICATION_FAILED}) and, with
 * authorization on, requests whose user lacks a right the request code needs ({@link ResponseCode#NO_PERMISSION},
 * the remark naming user, resource and right). Refusals are logged once per cause and interval, however many come.
 *
 * <p>A request comes from a user in one of two ways: it is signed by the user ({@code RequestSignature}; RocketMQ's
 * way, every request), or it carries no credential fields and its connection has a session, opened once by the
 * challenge-response of {@link SessionHandshake}, which this guard serves itself. A signed request is checked by its
 * signature even on a connection with a session. With {@code signEveryRequest}, sessions are offered on TLS
 * connections only, so on plain connections every request is signed.
 *
 * <p>Thread-safe; per-connection state lives in {@link ConnectionAuth}.
 */
public final class AclGuard implements RequestGuard {

    private static final Logger log = LoggerFactory.getLogger(AclGuard.class);

    private final AccessController access;
    private final boolean authorize;
    private final boolean signEveryRequest;
    private final RateLimitedLog refusals = RateLimitedLog.of(log);
    private final AtomicLong authenticationFailures = new AtomicLong();
    private final AtomicLong denials = new AtomicLong();
    private final AtomicLong sessionsOpened = new AtomicLong();

    /**
     * @param authorize        whether to check rights too, or only who the user is
     * @param signEveryRequest whether plain (non-TLS) connections must sign every request instead of opening a
     *                         session ({@code aclSignEveryRequest})
     */
    public AclGuard(AccessController access, boolean authorize, boolean signEveryRequest) {
        this.access = access;
        this.authorize = authorize;
        this.signEveryRequest = signEveryRequest;
    }

    @Override
    public RemotingCommand answer(RemotingChannel channel, RemotingCommand request) {
        int code = request.code();
        if (code == RequestCode.AUTH_CHALLENGE) {
            return challenge(channel, request);
        }
        if (code == RequestCode.AUTH_SESSION) {
            return openSession(channel, request);
        }
        return null;
    }

    @Override
    public RemotingCommand check(RemotingChannel channel, RemotingCommand request) {
        ConnectionAuth state = channel.guardState() instanceof ConnectionAuth c ? c : null;
        Session session = state == null ? null : state.session();
        Authentication who = session != null && request.ext(RequestSignature.ACCESS_KEY) == null
                ? access.resume(session)
                : access.authenticate(request.code(), request.extFields(), request.body());
        if (!who.succeeded()) {
            return refuseAuthentication(channel, request, who.failure());
        }
        if (!authorize) {
            return null;
        }
        User user = who.user();
        List<RequestAccess.Need> needs = RequestAccess.needs(request);
        for (int i = 0; i < needs.size(); i++) {
            RequestAccess.Need need = needs.get(i);
            String denial = decide(state, user, need);
            if (denial != null) {
                denials.incrementAndGet();
                refusals.warn("denied:" + user.name() + ":" + need.action() + ":" + need.resource(),
                        "Refused {} from {}: {}", RequestCode.NAMES.name(request.code()), channel.remoteAddress(), denial);
                return request.newResponse(ResponseCode.NO_PERMISSION, "[AUTHORIZATION] " + denial + " (request "
                        + RequestCode.NAMES.name(request.code()) + ")");
            }
        }
        return null;
    }

    /** Null when allowed, else the denial; remembered per connection until the users file is reloaded. */
    private String decide(ConnectionAuth state, User user, RequestAccess.Need need) {
        String cached = state == null ? null : state.decision(user, need);
        if (cached != null) {
            return cached == ConnectionAuth.ALLOWED ? null : cached;
        }
        String denial = access.authorize(user, need.resource(), need.action());
        if (state != null) {
            state.remember(user, need, denial);
        }
        return denial;
    }

    private RemotingCommand challenge(RemotingChannel channel, RemotingCommand request) {
        if (signEveryRequest && !channel.isEncrypted()) {
            return request.newResponse(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, "this server wants every request"
                    + " on a plain connection signed (aclSignEveryRequest=true); sessions are offered over TLS");
        }
        ConnectionAuth state = stateOf(channel);
        RemotingCommand response = request.newResponse(ResponseCode.SUCCESS, null);
        response.putExt(SessionHandshake.SERVER_NONCE, state.challenge());
        return response;
    }

    private RemotingCommand openSession(RemotingChannel channel, RemotingCommand request) {
        ConnectionAuth state = channel.guardState() instanceof ConnectionAuth c ? c : null;
        String issued = state == null ? null : state.takeChallenge();
        String answered = request.ext(SessionHandshake.SERVER_NONCE);
        String clientNonce = request.ext(SessionHandshake.CLIENT_NONCE);
        if (issued == null || answered == null || !MessageDigest.isEqual(issued.getBytes(StandardCharsets.US_ASCII),
                answered.getBytes(StandardCharsets.US_ASCII))) {
            return refuseAuthentication(channel, request, "the session request does not answer a challenge this"
                    + " server issued on this connection (each challenge can be answered once); ask "
                    + RequestCode.NAMES.name(RequestCode.AUTH_CHALLENGE) + " first");
        }
        if (!SessionHandshake.isNonce(clientNonce)) {
            return refuseAuthentication(channel, request, "the session request's " + SessionHandshake.CLIENT_NONCE
                    + " is not " + SessionHandshake.NONCE_CHARS + " hex digits");
        }
        SessionOpening opening = access.openSession(request.code(), request.extFields());
        if (!opening.succeeded()) {
            return refuseAuthentication(channel, request, opening.failure());
        }
        Session session = opening.session();
        state.bind(session);
        sessionsOpened.incrementAndGet();
        RemotingCommand response = request.newResponse(ResponseCode.SUCCESS, null);
        response.putExt(SessionHandshake.SERVER_PROOF, access.sessionProof(session, SessionHandshake.SERVER_PROOF_CODE,
                SessionHandshake.proofFields(session.user(), issued, clientNonce)));
        return response;
    }

    private RemotingCommand refuseAuthentication(RemotingChannel channel, RemotingCommand request, String failure) {
        authenticationFailures.incrementAndGet();
        // the cause, not the peer or user, is the key: a flood of bad logins writes a handful of lines
        refusals.warn("authentication:" + failure.substring(0, Math.min(24, failure.length())),
                "Refused {} from {}: {}", RequestCode.NAMES.name(request.code()), channel.remoteAddress(), failure);
        return request.newResponse(ResponseCode.AUTHENTICATION_FAILED, "[AUTHENTICATION] " + failure);
    }

    private static ConnectionAuth stateOf(RemotingChannel channel) {
        if (channel.guardState() instanceof ConnectionAuth c) {
            return c;
        }
        ConnectionAuth fresh = new ConnectionAuth();
        channel.setGuardState(fresh); // one I/O thread per connection: no other challenge races this one
        return fresh;
    }

    /** Requests refused so far because they were not signed by a known user. */
    public long authenticationFailures() {
        return authenticationFailures.get();
    }

    /** Requests refused so far because their user lacked a right. */
    public long denials() {
        return denials.get();
    }

    /** Connections authenticated by a session handshake so far. */
    public long sessionsOpened() {
        return sessionsOpened.get();
    }
}
