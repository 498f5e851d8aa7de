package dev.wharf.console.login;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.console.ConsoleSettings;
import dev.wharf.console.TestUsers;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockHttpSession;

/**
 * The guard in front of the API, request by request: the open console (no users file, loopback) still wants the
 * CSRF token for changes; with users, the principal of a passed request is the signed-in user with the role the
 * file grants now.
 */
class AccessFilterTest {

    @TempDir
    Path dir;

    private static ConsoleSettings settings(String usersFile) {
        return new ConsoleSettings("127.0.0.1:9876", null, null, null, usersFile, false, null, null, null, null);
    }

    private static MockHttpServletRequest request(String method, String path, MockHttpSession session) {
        MockHttpServletRequest r = new MockHttpServletRequest(method, path);
        r.setSession(session);
        return r;
    }

    private static MockFilterChain pass(AccessFilter filter, MockHttpServletRequest request,
                                        MockHttpServletResponse response) throws Exception {
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, response, chain);
        return chain;
    }

    @Test
    void anOpenConsoleLetsReadsThroughAndWantsTheCsrfTokenForChanges() throws Exception {
        AccessFilter filter = new AccessFilter(new ConsoleUsers(settings(null), "127.0.0.1"));
        MockHttpSession session = new MockHttpSession();
        MockHttpServletResponse read = new MockHttpServletResponse();
        assertThat(pass(filter, request("GET", "/api/topics", session), read).getRequest()).isNotNull();

        MockHttpServletResponse forged = new MockHttpServletResponse();
        MockFilterChain stopped = pass(filter, request("DELETE", "/api/topics/orders", session), forged);
        assertThat(stopped.getRequest()).isNull();
        assertThat(forged.getStatus()).isEqualTo(403);
        assertThat(forged.getContentAsString()).contains("CSRF token");

        MockHttpServletRequest withToken = request("DELETE", "/api/topics/orders", session);
        withToken.addHeader(Sessions.CSRF_HEADER, Sessions.csrfToken(request("GET", "/api/session", session)));
        MockFilterChain passed = pass(filter, withToken, new MockHttpServletResponse());
        assertThat(passed.getRequest()).isNotNull();
        assertThat(((HttpServletRequest) passed.getRequest()).getUserPrincipal())
                .as("nobody signed in: the audit log names the address").isNull();

        MockHttpServletResponse page = new MockHttpServletResponse();
        assertThat(pass(filter, request("GET", "/index.html", null), page).getRequest()).isNotNull();
    }

    @Test
    void aSignedInUsersRequestsCarryThemAsPrincipalWithTheirRoleOfNow() throws Exception {
        ConsoleUsers users = new ConsoleUsers(settings(TestUsers.write(dir).toString()), "127.0.0.1");
        AccessFilter filter = new AccessFilter(users);
        MockHttpSession session = new MockHttpSession();
        MockHttpServletRequest login = request("POST", "/api/login", session);
        Sessions.signIn(login, users.authenticate(TestUsers.VIEWER, TestUsers.VIEWER_PASSWORD.toCharArray()));

        MockFilterChain chain = pass(filter, request("GET", "/api/cluster", session), new MockHttpServletResponse());
        HttpServletRequest passed = (HttpServletRequest) chain.getRequest();
        assertThat(passed.getUserPrincipal()).isEqualTo(new ConsoleUser(TestUsers.VIEWER, Role.READ_ONLY));
        assertThat(passed.isUserInRole("read-only")).isTrue();

        MockHttpServletResponse anonymous = new MockHttpServletResponse();
        pass(filter, request("GET", "/api/cluster", new MockHttpSession()), anonymous);
        assertThat(anonymous.getStatus()).isEqualTo(401);
    }
}
