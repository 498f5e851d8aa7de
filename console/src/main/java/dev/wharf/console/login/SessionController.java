package dev.wharf.console.login;

import dev.wharf.console.AuditLog;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Sign-in, sign-out and the session's state. A failed sign-in says only that it failed, never whether the name or
 * the password was wrong, and counts towards the {@link LoginThrottle}.
 */
@RestController
public class SessionController {

    private final ConsoleUsers users;
    private final LoginThrottle throttle;
    private final AuditLog audit;

    public SessionController(ConsoleUsers users, LoginThrottle throttle, AuditLog audit) {
        this.users = users;
        this.throttle = throttle;
        this.audit = audit;
    }

    /** What a sign-in sends. */
    record Credentials(String user, String password) {
        @Override
        public String toString() {
            return "Credentials{user=" + user + "}"; // never the password, should anything log it
        }
    }

    /** Whether a login is needed, who is signed in with which role, and the CSRF token changes must carry. */
    @GetMapping("/api/session")
    public Map<String, Object> session(HttpServletRequest request) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("loginRequired", users.loginRequired());
        ConsoleUser user = Sessions.user(request);
        Role role = user == null ? null : users.roleOf(user.name());
        if (users.loginRequired()) {
            out.put("user", role == null ? null : user.name());
            out.put("role", role == null ? null : role.label());
        } else {
            out.put("user", null);
            out.put("role", Role.ADMIN.label()); // no login: the console is open (loopback or --insecure)
        }
        out.put("csrf", Sessions.csrfToken(request));
        return out;
    }

    @PostMapping("/api/login")
    public Map<String, Object> login(@RequestBody(required = false) Credentials body, HttpServletRequest request,
                                     HttpServletResponse response) throws IOException {
        if (!users.loginRequired()) {
            AccessFilter.refuse(response, 400, "This console has no users file, so there is nothing to sign in to.");
            return null;
        }
        String name = body == null || body.user() == null ? "" : body.user().trim();
        String password = body == null || body.password() == null ? "" : body.password();
        if (name.isEmpty() || password.isEmpty()) {
            AccessFilter.refuse(response, 400, "Give a user name and a password.");
            return null;
        }
        String address = request.getRemoteAddr();
        long wait = throttle.retryAfterMillis(address, name);
        if (wait > 0) {
            long seconds = (wait + 999) / 1000;
            response.setHeader("Retry-After", String.valueOf(seconds));
            AccessFilter.refuse(response, 429, "Too many failed sign-ins from this address or for this user; try"
                    + " again in " + seconds + " s.");
            return null;
        }
        ConsoleUser user = users.authenticate(name, password.toCharArray());
        if (user == null) {
            throttle.failed(address, name);
            audit.record(request, "sign-in as '" + name + "'", "refused");
            AccessFilter.refuse(response, 401, "Sign-in failed: unknown user or wrong password.");
            return null;
        }
        throttle.succeeded(address, name);
        Sessions.signIn(request, user);
        audit.record(request, "sign-in as '" + name + "'", "signed in, " + user.role().label());
        return session(request);
    }

    @PostMapping("/api/logout")
    public Map<String, Object> logout(HttpServletRequest request) {
        ConsoleUser user = Sessions.user(request);
        Sessions.signOut(request);
        if (user != null) {
            audit.record(request, "sign-out of '" + user.name() + "'", "signed out");
        }
        return Map.of("signedOut", true);
    }
}
