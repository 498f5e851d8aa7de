package dev.wharf.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A browser as far as the console's API sees one: its own cookies (the session) and the session's CSRF token,
 * sent with every change unless a test leaves it out on purpose.
 */
final class ConsoleHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    private final int port;
    String csrf;

    ConsoleHttp(int port) {
        this.port = port;
    }

    /** An answer of the console; {@code json} is null when the body is not JSON. */
    record Answer(int status, JsonNode json, String text, HttpResponse<String> response) {
        String error() {
            return json == null ? "" : json.path("error").asString();
        }
    }

    Answer send(String method, String path, Object body, boolean withToken) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (withToken) {
            if (csrf == null) {
                session();
            }
            b.header("X-CSRF-Token", csrf);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = r.body().startsWith("{") || r.body().startsWith("[") ? JSON.readTree(r.body()) : null;
        assertThat(r.body()).as("no stack trace reaches a page").doesNotContain("\tat ").doesNotContain("Exception:");
        return new Answer(r.statusCode(), json, r.body(), r);
    }

    /** A change (anything but GET) with the session's CSRF token. */
    Answer call(String method, String path, Object body) throws Exception {
        return send(method, path, body, !method.equals("GET"));
    }

    Answer get(String path) throws Exception {
        return send("GET", path, null, false);
    }

    /** The session's state; remembers its CSRF token. */
    Answer session() throws Exception {
        Answer a = send("GET", "/api/session", null, false);
        csrf = a.json().get("csrf").asString();
        return a;
    }

    /** Signs in; on success remembers the new session's CSRF token. */
    Answer login(String user, String password) throws Exception {
        Answer a = send("POST", "/api/login", Map.of("user", user, "password", password), true);
        if (a.status() == 200) {
            csrf = a.json().get("csrf").asString();
        }
        return a;
    }
}
