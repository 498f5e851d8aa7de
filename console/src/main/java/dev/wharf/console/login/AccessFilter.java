package dev.wharf.console.login;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Map;
import java.util.Set;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.ObjectMapper;

/**
 * Guards the API ({@code /api/...}; the static pages are public, they draw the sign-in form):
 * <ul>
 *   <li>with a users file, every call but {@code /api/session} and {@code /api/login} needs a signed-in user (401
 *       otherwise), whose role is looked up again in the file at each call;</li>
 *   <li>every call that changes something carries the session's CSRF token in {@code X-CSRF-Token} (403 otherwise),
 *       the sign-in included, login or not: a page of another site cannot read the token, so it cannot make the
 *       browser act;</li>
 *   <li>changes (all but sign-out) need the admin role (403 with a sentence for a read-only user).</li>
 * </ul>
 * Requests that pass carry the user as their principal, for the audit log.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class AccessFilter extends OncePerRequestFilter {

    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ConsoleUsers users;

    public AccessFilter(ConsoleUsers users) {
        this.users = users;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return !path.startsWith("/api/") || path.equals("/api/session");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        ConsoleUser user = null;
        if (users.loginRequired() && !path.equals("/api/login")) {
            ConsoleUser signedIn = Sessions.user(request);
            Role role = signedIn == null ? null : users.roleOf(signedIn.name());
            if (role == null) {
                if (signedIn != null) {
                    Sessions.signOut(request); // removed from the users file since signing in
                }
                refuse(response, 401, "Sign in first.");
                return;
            }
            user = new ConsoleUser(signedIn.name(), role);
        }
        boolean change = !READS.contains(request.getMethod());
        if (change && !Sessions.csrfMatches(request)) {
            refuse(response, 403, "The request lacks the console's CSRF token (header " + Sessions.CSRF_HEADER
                    + "); reload the page and try again.");
            return;
        }
        boolean sessionChange = path.equals("/api/logout") || path.equals("/api/login");
        if (change && !sessionChange && user != null && user.role() != Role.ADMIN) {
            refuse(response, 403, "User '" + user.name() + "' is read-only: changing the cluster (create or delete"
                    + " topics, reset offsets, resend dead letters) needs the admin role, which super users and"
                    + " users allowed ADMIN on cluster:* have.");
            return;
        }
        chain.doFilter(user == null ? request : withPrincipal(request, user), response);
    }

    private static HttpServletRequest withPrincipal(HttpServletRequest request, ConsoleUser user) {
        return new HttpServletRequestWrapper(request) {
            @Override
            public Principal getUserPrincipal() {
                return user;
            }

            @Override
            public String getRemoteUser() {
                return user.name();
            }

            @Override
            public boolean isUserInRole(String role) {
                return user.role().label().equals(role);
            }
        };
    }

    static void refuse(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(JSON.writeValueAsString(Map.of("error", message)));
    }
}
