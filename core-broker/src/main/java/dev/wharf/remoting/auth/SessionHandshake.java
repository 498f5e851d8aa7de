package dev.wharf.remoting.auth;

import dev.wharf.security.RequestSignature;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The two-step authentication of a connection (request codes {@code AUTH_CHALLENGE} and {@code AUTH_SESSION}):
 * <ol>
 *   <li>the client asks for a challenge; the server answers with a fresh random nonce for this connection
 *       ({@link #SERVER_NONCE}) and keeps it;</li>
 *   <li>the client sends {@code AUTH_SESSION} with that nonce and one of its own ({@link #CLIENT_NONCE}), signed
 *       with the user's key like any request ({@code RequestSignature}: HMAC-SHA256 over code and fields, user and
 *       time included). The server takes its nonce back (one use), checks the signature, binds the connection to
 *       the user and answers with its own proof ({@link #SERVER_PROOF}): the same fields signed under
 *       {@link #SERVER_PROOF_CODE}, which only a holder of the user's key can make.</li>
 * </ol>
 * The password never crosses the wire; a captured {@code AUTH_SESSION} is worthless on any other connection (the
 * server's nonce differs) and on its own (the nonce was used). The proof codes lie outside the remoting request codes,
 * so a server proof never passes for a client's request signature.
 */
final class SessionHandshake {

    /** Field of the challenge answer and of {@code AUTH_SESSION}: the server's nonce, hex. */
    static final String SERVER_NONCE = "SessionServerNonce";
    /** Field of {@code AUTH_SESSION}: the client's nonce, hex. */
    static final String CLIENT_NONCE = "SessionClientNonce";
    /** Field of the answer to {@code AUTH_SESSION}: the server's proof, base64. */
    static final String SERVER_PROOF = "SessionServerProof";
    /** Signature "request code" of the server's proof: outside the remoting codes. */
    static final int SERVER_PROOF_CODE = 0x57530002;
    /** Hex characters of a nonce (32 random bytes). */
    static final int NONCE_CHARS = 64;

    private static final SecureRandom RANDOM = new SecureRandom();

    private SessionHandshake() {
    }

    static String nonce() {
        byte[] bytes = new byte[NONCE_CHARS / 2];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static boolean isNonce(String value) {
        if (value == null || value.length() != NONCE_CHARS) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.digit(value.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** What the server's proof signs. */
    static Map<String, String> proofFields(String user, String serverNonce, String clientNonce) {
        Map<String, String> fields = new HashMap<>();
        fields.put(RequestSignature.ACCESS_KEY, user);
        fields.put(SERVER_NONCE, serverNonce);
        fields.put(CLIENT_NONCE, clientNonce);
        return fields;
    }
}
