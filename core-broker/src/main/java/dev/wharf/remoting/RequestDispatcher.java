package dev.wharf.remoting;

import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandException;
import dev.wharf.protocol.header.HeaderException;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.Unsupported;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processor table of an endpoint and the path of an inbound request: pick the processor for the code,
 * hand the request to that processor's executor, turn the outcome into a response. The table is
 * copy-on-write (registrations are rare) so the lookup on the I/O thread takes no lock and boxes nothing.
 */
final class RequestDispatcher {

    /** The remark of a request refused because its processor's executor is full. */
    static final String OVERLOAD_REMARK = "[OVERLOAD] broker busy, try later";

    private static final Logger log = LoggerFactory.getLogger(RequestDispatcher.class);

    /** {@code executor} null: processed on the I/O thread the request arrived on. */
    private record Registration(RequestProcessor processor, ExecutorService executor) {
    }

    private volatile IntObjectMap<Registration> processors = new IntObjectHashMap<>();
    private volatile Registration defaultProcessor;
    private volatile RequestGuard guard;
    private final AtomicLong overloaded = new AtomicLong();
    /** Refusals and processor failures can come at the request rate: one line per kind per interval. */
    private final RateLimitedLog warnings = RateLimitedLog.of(log);

    synchronized void register(int code, RequestProcessor processor, ExecutorService executor) {
        IntObjectMap<Registration> copy = new IntObjectHashMap<>(processors.size() + 1);
        copy.putAll(processors);
        copy.put(code, registration(processor, executor));
        processors = copy;
    }

    /**
     * Registers a processor run on the I/O thread the request arrived on: for requests whose processing never blocks
     * (it may answer later, from another thread), so that they skip two thread hand-offs.
     */
    synchronized void registerOnIoThread(int code, RequestProcessor processor) {
        IntObjectMap<Registration> copy = new IntObjectHashMap<>(processors.size() + 1);
        copy.putAll(processors);
        copy.put(code, new Registration(Objects.requireNonNull(processor, "processor"), null));
        processors = copy;
    }

    void setGuard(RequestGuard guard) {
        this.guard = guard;
    }

    void registerDefault(RequestProcessor processor, ExecutorService executor) {
        defaultProcessor = registration(processor, executor);
    }

    private static Registration registration(RequestProcessor processor, ExecutorService executor) {
        return new Registration(Objects.requireNonNull(processor, "processor"),
                Objects.requireNonNull(executor, "executor (use RemotingExecutors.bounded)"));
    }

    /** I/O thread: a request arrived on {@code channel}. */
    void dispatch(NettyRemotingChannel channel, RemotingCommand request) {
        request.markArrived(System.nanoTime());
        RequestGuard g = guard;
        if (g != null) {
            RemotingCommand own = g.answer(channel, request);
            if (own != null) {
                if (request.isOneway()) {
                    NettyRemotingChannel.releaseBody(own);
                } else {
                    own.setOpaque(request.opaque());
                    own.markAnswering(request);
                    channel.writeResponse(own);
                }
                return;
            }
        } else if (request.code() == RequestCode.AUTH_CHALLENGE) {
            // a client with credentials meets a server without authentication: routine, so no warning
            reply(channel, request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED, "authentication is off on this server");
            return;
        }
        Registration registration = processors.get(request.code());
        if (registration == null) {
            registration = defaultProcessor;
        }
        if (registration == null) {
            warnings.warn("unsupported:" + request.code(), "Refused {} from {}: the request code is not supported",
                    request.describe(), channel.remoteAddress());
            reply(channel, request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED, Unsupported.remark(request.code()));
            return;
        }
        RequestProcessor processor = registration.processor();
        if (processor.rejectRequest()) {
            reply(channel, request, ResponseCode.SYSTEM_BUSY, "[REJECT] " + RequestCode.NAMES.describe(request.code())
                    + " is refused for now (flow control), try later");
            return;
        }
        if (registration.executor() == null) {
            process(processor, channel, request);
            return;
        }
        try {
            registration.executor().execute(() -> process(processor, channel, request));
        } catch (RejectedExecutionException e) {
            logOverload(channel, request);
            reply(channel, request, ResponseCode.SYSTEM_BUSY, OVERLOAD_REMARK);
        }
    }

    private void process(RequestProcessor processor, NettyRemotingChannel channel, RemotingCommand request) {
        RemotingCommand response;
        try {
            RequestGuard g = guard;
            RemotingCommand refused = g == null ? null : g.check(channel, request);
            response = refused != null ? refused : processor.process(channel, request);
        } catch (RemotingCommandException | HeaderException e) {
            warnings.warn("bad-header:" + request.code(), "Refused {} from {}: {}", request.describe(),
                    channel.remoteAddress(), e.getMessage());
            response = request.newResponse(ResponseCode.REQUEST_HEADER_INVALID, e.getMessage());
        } catch (Throwable t) {
            warnings.warn("failed:" + request.code() + ":" + t.getClass().getName(),
                    "Processor of {} from {} failed: {}", request.describe(), channel.remoteAddress(), t.toString());
            log.debug("Processor failure detail", t);
            String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
            response = request.newResponse(ResponseCode.SYSTEM_ERROR, message);
        }
        if (response == null) {
            return;
        }
        if (RefusalCodes.isRefusal(request.code(), response.code())) {
            // the client may never see the answer (a one-way request gets none): the broker's log says why
            warnings.warn("refused:" + request.code() + ":" + response.code(), "Refused {}{} from {} with {}: {}",
                    request.isOneway() ? "one-way " : "", request.describe(), channel.remoteAddress(),
                    ResponseCode.NAMES.name(response.code()), response.remark());
        }
        if (request.isOneway()) {
            NettyRemotingChannel.releaseBody(response);
            return;
        }
        response.setOpaque(request.opaque());
        response.markAnswering(request);
        channel.writeResponse(response);
    }

    private static void reply(NettyRemotingChannel channel, RemotingCommand request, int code, String remark) {
        if (!request.isOneway()) {
            channel.writeResponse(request.newResponse(code, remark));
        }
    }

    /** One WARN line per interval at most, however hard the flood. */
    private void logOverload(NettyRemotingChannel channel, RemotingCommand request) {
        long count = overloaded.incrementAndGet();
        warnings.warn("overload", "Processor executor full: refused {} from {} with SYSTEM_BUSY ({} requests refused"
                + " so far)", request.describe(), channel.remoteAddress(), count);
    }
}
