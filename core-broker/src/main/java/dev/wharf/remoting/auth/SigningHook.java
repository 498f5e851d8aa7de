package dev.wharf.remoting.auth;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.remoting.RequestSigner;
import dev.wharf.security.Credentials;
import dev.wharf.security.RequestSignature;
import java.util.Objects;

/** Signs every request a client sends with one user's {@link Credentials}. Thread-safe. */
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

    public String user() {
        return credentials.user();
    }
}
