package dev.wharf.client.impl;

import dev.wharf.client.ClientException;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.exception.RemotingConnectException;
import dev.wharf.remoting.exception.RemotingException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Invokes requests through the shared remoting client and turns every failure into a {@link ClientException}
 * naming the peer and the request: {@link ClientException#NO_RESPONSE} for transport failures, the server's code
 * for refusals. Thread-safe.
 */
public final class RemotingCalls {

    private final NettyRemotingClient remoting;

    public RemotingCalls(NettyRemotingClient remoting) {
        this.remoting = remoting;
    }

    /** A request of {@code code} carrying {@code header} (may be null) as its extension fields. */
    public static RemotingCommand request(int code, Record header) {
        RemotingCommand request = RemotingCommand.createRequest(code);
        if (header != null) {
            for (Map.Entry<String, String> e : HeaderCodec.encode(header).entrySet()) {
                request.putExt(e.getKey(), e.getValue());
            }
        }
        return request;
    }

    public RemotingCommand invoke(String address, RemotingCommand request, long timeoutMillis)
            throws ClientException, InterruptedException {
        try {
            return remoting.invokeSync(address, request, timeoutMillis);
        } catch (RemotingException e) {
            throw noResponse(address, request.code(), e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ClientException("Cannot send " + RequestCode.NAMES.name(request.code()) + " to " + address + ": "
                    + e.getMessage(), e);
        }
    }

    /** Like {@link #invoke}, but fails unless the answer is SUCCESS. */
    public RemotingCommand invokeExpectSuccess(String address, RemotingCommand request, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = invoke(address, request, timeoutMillis);
        if (response.code() != ResponseCode.SUCCESS) {
            throw refused(address, request.code(), response);
        }
        return response;
    }

    /** The future fails with a {@link ClientException} (wrapped in a CompletionException by dependents). */
    public CompletableFuture<RemotingCommand> invokeAsync(String address, RemotingCommand request, long timeoutMillis) {
        CompletableFuture<RemotingCommand> raw;
        try {
            raw = remoting.invokeAsync(address, request, timeoutMillis);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return CompletableFuture.failedFuture(new ClientException("Cannot send " + RequestCode.NAMES.name(request.code())
                    + " to " + address + ": " + e.getMessage(), e));
        }
        CompletableFuture<RemotingCommand> out = new CompletableFuture<>();
        raw.whenComplete((response, error) -> {
            if (error == null) {
                out.complete(response);
                return;
            }
            Throwable cause = unwrap(error);
            out.completeExceptionally(cause instanceof RemotingException re
                    ? noResponse(address, request.code(), re)
                    : new ClientException("Cannot send " + RequestCode.NAMES.name(request.code()) + " to " + address + ": "
                    + cause.getMessage(), cause));
        });
        return out;
    }

    public void invokeOneway(String address, RemotingCommand request, long timeoutMillis)
            throws ClientException, InterruptedException {
        try {
            remoting.invokeOneway(address, request.markOneway(), timeoutMillis);
        } catch (RemotingException e) {
            throw noResponse(address, request.code(), e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ClientException("Cannot send " + RequestCode.NAMES.name(request.code()) + " to " + address + ": "
                    + e.getMessage(), e);
        }
    }

    public static ClientException noResponse(String address, int requestCode, RemotingException e) {
        // a connection that failed before the request was written: the server never saw it
        boolean neverSent = e instanceof RemotingConnectException c && !c.requestWritten();
        return new ClientException(ClientException.NO_RESPONSE, "No answer from " + address + " to "
                + RequestCode.NAMES.name(requestCode) + ": " + e.getMessage(), e, neverSent);
    }

    /** A refusal: the server's code and its remark, which says what was wrong. */
    public static ClientException refused(String address, int requestCode, RemotingCommand response) {
        String remark = response.remark() == null || response.remark().isBlank()
                ? "(no reason given)" : response.remark();
        return new ClientException(response.code(), RequestCode.NAMES.name(requestCode) + " was refused by " + address
                + " with " + ResponseCode.NAMES.name(response.code()) + ": " + remark);
    }

    /** The ClientException inside a failed future's exception, or a new one wrapping an unexpected cause. */
    public static ClientException asClientException(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof ClientException ce ? ce : new ClientException(String.valueOf(cause.getMessage()), cause);
    }

    static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
