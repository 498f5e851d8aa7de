package dev.wharf.controller.client;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.ControllerHeaders.NotLeaderHeader;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.exception.RemotingException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Sends requests to the controller leader: first where the leader was last found, then wherever a node's
 * CONTROLLER_NOT_LEADER answer points, then every configured address in turn, round after round for up to one
 * request timeout (a controller election takes a second or two). A node that stayed silent until the attempt's
 * timeout (paused, cut off) is suspect for a while: it is asked after the others, at most once per attempt timeout
 * (or per second if shorter), and a redirect to it is not followed, so a silent old leader that the followers still
 * name until they have elected costs one attempt, not the whole request timeout. A node that refuses the connection
 * at once (killed, restarting) costs nothing and is asked every round. Thread-safe.
 */
public final class ControllerInvoker {

    private static final long PAUSE_BETWEEN_ROUNDS_MILLIS = 100;

    /** The answer of the leader and when the attempt that got it was sent. */
    public record LeaderAnswer(RemotingCommand response, long sentAtNanos) {
    }

    private final NettyRemotingClient remoting;
    private final List<String> addresses;
    private final long timeoutMillis;
    private final long suspectNanos;
    private final Map<String, Long> suspectSince = new ConcurrentHashMap<>();
    private volatile String leader;

    public ControllerInvoker(NettyRemotingClient remoting, List<String> addresses, long timeoutMillis) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no controller address given (controllerAddr)");
        }
        this.remoting = remoting;
        this.addresses = List.copyOf(addresses);
        this.timeoutMillis = timeoutMillis;
        // long enough to cover a controller election, short enough that a resumed node is asked again soon
        this.suspectNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1_000, timeoutMillis));
    }

    /**
     * Parses {@code controllerAddr}: "host:port" entries separated by ';' (RocketMQ's form) or ','.
     *
     * @throws IllegalArgumentException naming the entry that is not host:port
     */
    public static List<String> parseAddresses(String controllerAddr) {
        List<String> out = new ArrayList<>();
        if (controllerAddr != null) {
            for (String part : controllerAddr.split("[;,]")) {
                String a = part.trim();
                if (a.isEmpty()) {
                    continue;
                }
                int colon = a.lastIndexOf(':');
                boolean ok = colon > 0 && colon < a.length() - 1;
                if (ok) {
                    try {
                        int port = Integer.parseInt(a.substring(colon + 1));
                        ok = port > 0 && port <= 65_535;
                    } catch (NumberFormatException e) {
                        ok = false;
                    }
                }
                if (!ok) {
                    throw new IllegalArgumentException("controller address '" + a + "' is not host:port "
                            + "(controllerAddr lists the controllers as host:port;host:port;...)");
                }
                out.add(a);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("controllerAddr is empty; give the controller addresses as "
                    + "host:port;host:port;...");
        }
        return out;
    }

    public List<String> addresses() {
        return addresses;
    }

    /** Where the leader was last found, or null. */
    public String leader() {
        return leader;
    }

    /**
     * Sends the request (built afresh for every attempt) to the leader and returns its answer, which may be any
     * code but CONTROLLER_NOT_LEADER.
     *
     * @throws ControllerException UNREACHABLE when no node was a reachable leader within the timeout
     */
    public RemotingCommand invokeLeader(Supplier<RemotingCommand> request)
            throws ControllerException, InterruptedException {
        return invokeLeader(request, timeoutMillis).response();
    }

    /**
     * Like {@link #invokeLeader(Supplier)}, with each attempt at one node cut off after {@code attemptTimeoutMillis}
     * (a heartbeat answered later than that is of no use to a lease), and telling when the answered attempt was sent:
     * the leader saw the request no earlier than that.
     *
     * @throws ControllerException UNREACHABLE when no node was a reachable leader within the request timeout
     */
    public LeaderAnswer invokeLeader(Supplier<RemotingCommand> request, long attemptTimeoutMillis)
            throws ControllerException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        // a suspect is asked again once an attempt's time has passed since it was silent, and after a second at
        // most: a leader that was only slow must not be skipped for long
        long askSuspectAfterNanos = TimeUnit.MILLISECONDS.toNanos(Math.min(attemptTimeoutMillis, 1_000));
        Set<String> problems = new LinkedHashSet<>();
        while (true) {
            long now = System.nanoTime();
            Deque<String> queue = new ArrayDeque<>();
            List<String> suspects = new ArrayList<>();
            String known = leader;
            if (known != null && !suspect(known, now)) {
                queue.add(known);
            }
            for (String a : addresses) {
                Long silentSince = suspectSince.get(a);
                if (silentSince == null || now - silentSince >= suspectNanos) {
                    queue.add(a);
                } else if (now - silentSince >= askSuspectAfterNanos) {
                    suspects.add(a); // silent a while ago: asked again, but after the others
                }
            }
            Set<String> tried = new LinkedHashSet<>();
            boolean suspectsQueued = false;
            while (!queue.isEmpty() || !suspectsQueued) {
                if (queue.isEmpty()) {
                    suspectsQueued = true;
                    queue.addAll(suspects);
                    continue;
                }
                String address = queue.poll();
                if (!tried.add(address)) {
                    continue;
                }
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    break;
                }
                long attempt = Math.min(left, attemptTimeoutMillis);
                long sentAt = System.nanoTime();
                RemotingCommand response;
                try {
                    response = remoting.invokeSync(address, request.get(), attempt);
                } catch (RemotingException e) {
                    problems.add(address + ": " + e.getMessage());
                    if (address.equals(leader)) {
                        leader = null;
                    }
                    long took = System.nanoTime() - sentAt;
                    if (took >= TimeUnit.MILLISECONDS.toNanos(attempt) / 2) {
                        // silent (paused, cut off, overloaded): costly to ask, so asked last for a while
                        suspectSince.put(address, System.nanoTime());
                    }
                    continue; // refused at once (killed, restarting): cheap, asked again next round
                }
                suspectSince.remove(address);
                if (response.code() == ResponseCode.CONTROLLER_NOT_LEADER) {
                    problems.add(address + ": " + response.remark());
                    if (address.equals(leader)) {
                        leader = null;
                    }
                    NotLeaderHeader hint = response.readHeader(NotLeaderHeader.class);
                    String next = hint.leaderAddress();
                    // followers keep naming a silent old leader until they have elected: not followed to it
                    if (next != null && !tried.contains(next) && !suspect(next, System.nanoTime())) {
                        queue.addFirst(next);
                    }
                    continue;
                }
                leader = address;
                return new LeaderAnswer(response, sentAt);
            }
            if (System.currentTimeMillis() + PAUSE_BETWEEN_ROUNDS_MILLIS >= deadline) {
                throw new ControllerException(ControllerException.UNREACHABLE, "No controller leader answered within "
                        + timeoutMillis + " ms among " + String.join(";", addresses) + " ("
                        + String.join("; ", problems) + ")");
            }
            Thread.sleep(PAUSE_BETWEEN_ROUNDS_MILLIS); // an election is under way: ask again shortly
        }
    }

    /** Whether the address was silent (timed out) lately. */
    private boolean suspect(String address, long nowNanos) {
        Long since = suspectSince.get(address);
        return since != null && nowNanos - since < suspectNanos;
    }

    /** Sends a request to one node, whatever its role. */
    public RemotingCommand invokeAt(String address, RemotingCommand request)
            throws ControllerException, InterruptedException {
        try {
            return remoting.invokeSync(address, request, timeoutMillis);
        } catch (RemotingException e) {
            throw new ControllerException(ControllerException.UNREACHABLE, "The controller at " + address
                    + " did not answer: " + e.getMessage(), e);
        }
    }
}
