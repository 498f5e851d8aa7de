package dev.wharf.console;

import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** Destructive actions, logged with who asked (the signed-in user, else the client address) and what came of it. */
@Component
public class AuditLog {

    private static final Logger log = LoggerFactory.getLogger("dev.wharf.console.audit");

    /** Who sent the request: the principal's name when there is a login, else "anonymous@ADDRESS". */
    static String who(HttpServletRequest request) {
        Principal p = request.getUserPrincipal();
        return p != null ? p.getName() : "anonymous@" + request.getRemoteAddr();
    }

    public void record(HttpServletRequest request, String action, String outcome) {
        log.info("{} {}: {}", who(request), action, outcome);
    }
}
