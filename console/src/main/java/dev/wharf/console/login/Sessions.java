package dev.wharf.console.login;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/** What the console keeps in a session: the signed-in user and the CSRF token that changes must carry. */
final class Sessions {

    /** The header every state-changing request must carry with the session's token. */
    static final String CSRF_HEADER = "X-CSRF-Token";
    private static final String USER = "wharf.console.user";
    private static final String CSRF = "wharf.console.csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Sessions() {
    }

    /** The signed-in user of the request's session, or null. */
    static ConsoleUser user(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? null : (ConsoleUser) session.getAttribute(USER);
    }

    /** The session's CSRF token, made with the session. */
    static String csrfToken(HttpServletRequest request) {
        HttpSession session = request.getSession(true);
        synchronized (session) {
            String token = (String) session.getAttribute(CSRF);
            if (token == null) {
                token = newToken();
                session.setAttribute(CSRF, token);
            }
            return token;
        }
    }

    /** Whether the request carries its session's CSRF token (constant-time comparison). */
    static boolean csrfMatches(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        String expected = session == null ? null : (String) session.getAttribute(CSRF);
        String given = request.getHeader(CSRF_HEADER);
        return expected != null && given != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                given.getBytes(StandardCharsets.UTF_8));
    }

    /** Signs {@code user} in: a new session id (no fixation) and a new CSRF token. */
    static void signIn(HttpServletRequest request, ConsoleUser user) {
        HttpSession session = request.getSession(true);
        request.changeSessionId();
        session.setAttribute(USER, user);
        session.setAttribute(CSRF, newToken());
    }

    static void signOut(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
    }

    private static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
