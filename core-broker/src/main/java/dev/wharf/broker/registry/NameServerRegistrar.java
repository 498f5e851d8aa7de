package dev.wharf.broker.registry;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.RegisterBrokerBody;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.HeaderException;
import dev.wharf.protocol.header.RouteHeaders.RegisterBrokerResponse;
import dev.wharf.protocol.header.RouteHeaders.RegisterBrokerRequest;
import dev.wharf.remoting.NettyRemotingClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the broker with EVERY NameServer (they never talk to each other): all at once, each with its own
 * timeout, so a dead NameServer costs one log line and does not delay the others. Registrations asked for
 * while one is running (a burst of topic creations) are folded into one more run. Thread-safe.
 */
public final class NameServerRegistrar {

    private static final Logger log = LoggerFactory.getLogger(NameServerRegistrar.class);

    private final NettyRemotingClient client;
    private final List<String> namesrvAddrs;
    private final Supplier<RegisterBrokerRequest> header;
    private final Supplier<RegisterBrokerBody> body;
    private final long timeoutMillis;
    private final Executor executor;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private final Map<String, Long> lastSuccess = new ConcurrentHashMap<>();
    /** Registrations refused in a row (reset by a successful one). */
    private final java.util.concurrent.atomic.AtomicInteger refusals = new java.util.concurrent.atomic.AtomicInteger();
    private static final long REFUSED_RETRY_MILLIS = 1_000;
    private volatile MasterInfo master = new MasterInfo(null, null);

    /** A slave's master as a NameServer names it: its client address and its HA address. */
    public record MasterInfo(String masterAddr, String haServerAddr) {
    }

    /**
     * @param client        a started remoting client (owned by the caller)
     * @param namesrvAddrs  the NameServers, "host:port" each
     * @param header        builds the registration header (the broker's name and address)
     * @param body          builds the registration body (the topic table and its version) at each run
     * @param timeoutMillis how long one NameServer may take
     * @param executor      runs requested registrations off the caller's thread
     */
    public NameServerRegistrar(NettyRemotingClient client, List<String> namesrvAddrs,
                               Supplier<RegisterBrokerRequest> header, Supplier<RegisterBrokerBody> body,
                               long timeoutMillis, Executor executor) {
        this.client = Objects.requireNonNull(client, "client");
        this.namesrvAddrs = List.copyOf(namesrvAddrs);
        this.header = header;
        this.body = body;
        this.timeoutMillis = timeoutMillis;
        this.executor = executor;
    }

    public List<String> namesrvAddrs() {
        return namesrvAddrs;
    }

    /**
     * Registers with every NameServer in parallel. The future completes when each has answered or failed;
     * it never completes exceptionally (failures are logged).
     */
    public CompletableFuture<Void> registerAll() {
        RegisterBrokerRequest h = header.get();
        byte[] encodedBody = Json.encode(body.get());
        List<CompletableFuture<?>> calls = new ArrayList<>(namesrvAddrs.size());
        for (String addr : namesrvAddrs) {
            RemotingCommand request = RemotingCommand.createRequest(RequestCode.REGISTER_BROKER);
            HeaderCodec.encode(h).forEach(request::putExt);
            request.setBody(encodedBody);
            calls.add(invoke(addr, request, "register with"));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> invoke(String addr, RemotingCommand request, String what) {
        CompletableFuture<RemotingCommand> call;
        try {
            call = client.invokeAsync(addr, request, timeoutMillis);
        } catch (RuntimeException e) {
            log.warn("Could not {} NameServer {}: {}", what, addr, e.getMessage());
            return CompletableFuture.completedFuture(null);
        }
        return call.handle((response, failure) -> {
            if (failure != null) {
                Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
                log.warn("Could not {} NameServer {}: {}", what, addr, cause.getMessage());
            } else if (response.code() != ResponseCode.SUCCESS) {
                log.warn("NameServer {} refused to {}: {} {}", addr, what.replace(" with", ""),
                        ResponseCode.NAMES.name(response.code()), response.remark());
                if (request.code() == RequestCode.REGISTER_BROKER) {
                    retryRefused();
                }
            } else {
                if (request.code() == RequestCode.REGISTER_BROKER) {
                    refusals.set(0);
                    lastSuccess.put(addr, System.currentTimeMillis());
                    learnMaster(addr, response);
                }
                log.debug("{} NameServer {}: done", what, addr);
            }
            return null;
        });
    }

    /**
     * Asks for a registration soon (after a topic change), off the calling thread. Requests made while one is
     * running are served by one more run after it.
     */
    public void requestRegistration() {
        again.set(true);
        if (running.compareAndSet(false, true)) {
            executor.execute(this::runOnce);
        }
    }

    private void runOnce() {
        again.set(false);
        CompletableFuture<Void> run;
        try {
            run = registerAll();
        } catch (RuntimeException e) {
            log.warn("Could not build the NameServer registration: {}", e.toString());
            run = CompletableFuture.completedFuture(null);
        }
        run.whenComplete((v, e) -> {
            running.set(false);
            if (again.get() && running.compareAndSet(false, true)) {
                executor.execute(this::runOnce);
            }
        });
    }

    /**
     * A refused registration (a live old master still holds the name and id, a failover under way) is tried again
     * soon, not at the next period: 1 s, then doubling to 16 s while refusals go on.
     */
    private void retryRefused() {
        int n = Math.min(refusals.getAndIncrement(), 4);
        try {
            CompletableFuture.delayedExecutor(REFUSED_RETRY_MILLIS << n, TimeUnit.MILLISECONDS).execute(() -> {
                try {
                    requestRegistration();
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    // the broker is shutting down
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down
        }
    }

    /** Unregisters from every NameServer, waiting at most the timeout. */
    public void unregisterAll() {
        RegisterBrokerRequest h = header.get();
        List<CompletableFuture<?>> calls = new ArrayList<>(namesrvAddrs.size());
        for (String addr : namesrvAddrs) {
            RemotingCommand request = RemotingCommand.createRequest(RequestCode.UNREGISTER_BROKER);
            HeaderCodec.encode(h).forEach(request::putExt);
            calls.add(invoke(addr, request, "unregister from"));
        }
        try {
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                    .get(timeoutMillis + 500, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("Unregistering from the NameServers did not finish: {}", e.toString());
        }
    }

    private void learnMaster(String namesrv, RemotingCommand response) {
        RegisterBrokerResponse reply;
        try {
            reply = HeaderCodec.decode(response.extFields(), RegisterBrokerResponse.class);
        } catch (HeaderException e) {
            log.warn("NameServer {} answered the registration with a malformed header: {}", namesrv, e.getMessage());
            return;
        }
        MasterInfo learnt = new MasterInfo(reply.masterAddr(), reply.haServerAddr());
        MasterInfo before = master;
        master = learnt;
        if (!learnt.equals(before)) {
            log.info("NameServer {} says the master of this broker group is {} (HA address {})", namesrv,
                    learnt.masterAddr(), learnt.haServerAddr());
        }
    }

    /**
     * The group's master as the NameServers last answered a registration (for a slave; both fields null for a
     * master, before the first answer, or while no master is registered).
     */
    public MasterInfo master() {
        return master;
    }

    /** Epoch millis of the last successful registration with {@code addr}, or 0. */
    public long lastSuccess(String addr) {
        return lastSuccess.getOrDefault(addr, 0L);
    }
}
