package dev.wharf.remoting.auth;

import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestGuard;
import dev.wharf.security.AccessController;
import dev.wharf.security.AccessController.Authentication;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses requests that are not signed by a known user ({@link ResponseCode#AUTHENTICATION_FAILED}) and, with
 * authorization on, requests whose user lacks a right the request code needs ({@link ResponseCode#NO_PERMISSION},
 * the remark naming user, resource and right). Refusals are logged once per cause and interval, however many come.
 *
 * <p>Stateless apart from counters; thread-safe.
 */
public final class AclGuard implements RequestGuard {

    private static final Logger log = LoggerFactory.getLogger(AclGuard.class);

    private final AccessController access;
    private final boolean authorize;
    private final RateLimitedLog refusals = RateLimitedLog.of(log);
    private final AtomicLong authenticationFailures = new AtomicLong();
    private final AtomicLong denials = new AtomicLong();

    /** @param authorize whether to check rights too, or only who signed */
    public AclGuard(AccessController access, boolean authorize) {
        this.access = access;
        this.authorize = authorize;
    }

    @Override
    public RemotingCommand check(RemotingChannel channel, RemotingCommand request) {
        Authentication who = access.authenticate(request.code(), request.extFields(), request.body());
        if (!who.succeeded()) {
            authenticationFailures.incrementAndGet();
            // the cause, not the peer or user, is the key: a flood of bad logins writes a handful of lines
            refusals.warn("authentication:" + who.failure().substring(0, Math.min(24, who.failure().length())),
                    "Refused {} from {}: {}", RequestCode.name(request.code()), channel.remoteAddress(), who.failure());
            return request.newResponse(ResponseCode.AUTHENTICATION_FAILED, "[AUTHENTICATION] " + who.failure());
        }
        if (!authorize) {
            return null;
        }
        for (RequestAccess.Need need : RequestAccess.needs(request)) {
            String denial = access.authorize(who.user(), need.resource(), need.action());
            if (denial != null) {
                denials.incrementAndGet();
                refusals.warn("denied:" + who.user().name() + ":" + need.action() + ":" + need.resource(),
                        "Refused {} from {}: {}", RequestCode.name(request.code()), channel.remoteAddress(), denial);
                return request.newResponse(ResponseCode.NO_PERMISSION, "[AUTHORIZATION] " + denial + " (request "
                        + RequestCode.name(request.code()) + ")");
            }
        }
        return null;
    }

    /** Requests refused so far because they were not signed by a known user. */
    public long authenticationFailures() {
        return authenticationFailures.get();
    }

    /** Requests refused so far because their user lacked a right. */
    public long denials() {
        return denials.get();
    }
}
