package dev.wharf.remoting.auth;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestSigner;
import dev.wharf.security.Credentials;
import dev.wharf.security.RequestSignature;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Authenticates a client's connections with one user's {@link Credentials}: once per connection by a session
 * handshake where the server offers it, else by signing every request. Thread-safe.
 */
public final class SigningHook implements RequestSigner {

    private final Credentials credentials;

    public SigningHook(Credentials credentials) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
    }

    @Override
    public void sign(RemotingCommand request) {
        request.putExt(RequestSignature.ACCESS_KEY, credentials.user());
        request.putExt(RequestSignature.TIMESTAMP, System.currentTimeMillis());
        request.putExt(RequestSignature.SIGNATURE, null);
        request.putExt(RequestSignature.SIGNATURE, credentials.signature(request.code(), request.extFields(),
                request.body(), request.bodyBuffers()));
    }

    @Override
    public void unsign(RemotingCommand request) {
        if (request.ext(RequestSignature.ACCESS_KEY) != null) {
            request.putExt(RequestSignature.ACCESS_KEY, null);
            request.putExt(RequestSignature.TIMESTAMP, null);
            request.putExt(RequestSignature.SIGNATURE, null);
        }
    }

    /** Authenticates the connection once by the challenge-response of {@link SessionHandshake}. */
    @Override
    public CompletableFuture<Boolean> openSession(RemotingChannel channel, long timeoutMillis) {
        CompletableFuture<RemotingCommand> challenge;
        try {
            challenge = channel.invokeAsync(RemotingCommand.createRequest(RequestCode.AUTH_CHALLENGE), timeoutMillis);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Boolean.FALSE);
        }
        return challenge.thenCompose(answer -> {
            String serverNonce = answer.ext(SessionHandshake.SERVER_NONCE);
            if (answer.code() != ResponseCode.SUCCESS || !SessionHandshake.isNonce(serverNonce)) {
                // an older server, or one that wants every request signed here
                return CompletableFuture.completedFuture(Boolean.FALSE);
            }
            String clientNonce = SessionHandshake.nonce();
            RemotingCommand request = RemotingCommand.createRequest(RequestCode.AUTH_SESSION);
            request.putExt(SessionHandshake.SERVER_NONCE, serverNonce);
            request.putExt(SessionHandshake.CLIENT_NONCE, clientNonce);
            sign(request);
            return channel.invokeAsync(request, timeoutMillis).thenApply(opened ->
                    opened.code() == ResponseCode.SUCCESS && serverProved(opened, serverNonce, clientNonce));
        }).exceptionally(failure -> Boolean.FALSE);
    }

    /** Whether the server's answer proves it holds this user's key (constant-time comparison). */
    private boolean serverProved(RemotingCommand opened, String serverNonce, String clientNonce) {
        String proof = opened.ext(SessionHandshake.SERVER_PROOF);
        if (proof == null) {
            return false;
        }
        String expected = credentials.signature(SessionHandshake.SERVER_PROOF_CODE,
                SessionHandshake.proofFields(credentials.user(), serverNonce, clientNonce), null, null);
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                proof.getBytes(StandardCharsets.US_ASCII));
    }

    public String user() {
        return credentials.user();
    }
}
