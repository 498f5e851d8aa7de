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
import java.util.Set;
import java.util.function.Supplier;

/**
 * Sends requests to the controller leader: first where the leader was last found, then wherever a node's
 * CONTROLLER_NOT_LEADER answer points, then every configured address in turn, for up to one request timeout (a
 * controller election takes a second or two). Thread-safe.
 */
public final class ControllerInvoker {

    private static final long PAUSE_BETWEEN_ROUNDS_MILLIS = 100;

    private final NettyRemotingClient remoting;
    private final List<String> addresses;
    private final long timeoutMillis;
    private volatile String leader;

    public ControllerInvoker(NettyRemotingClient remoting, List<String> addresses, long timeoutMillis) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no controller address given (controllerAddr)");
        }
        this.remoting = remoting;
        this.addresses = List.copyOf(addresses);
        this.timeoutMillis = timeoutMillis;
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
        long deadline = System.currentTimeMillis() + timeoutMillis;
        Set<String> problems = new LinkedHashSet<>();
        while (true) {
            Deque<String> queue = new ArrayDeque<>();
            String known = leader;
            if (known != null) {
                queue.add(known);
            }
            queue.addAll(addresses);
            Set<String> tried = new LinkedHashSet<>();
            while (!queue.isEmpty()) {
                String address = queue.poll();
                if (!tried.add(address)) {
                    continue;
                }
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    break;
                }
                RemotingCommand response;
                try {
                    response = remoting.invokeSync(address, request.get(), left);
                } catch (RemotingException e) {
                    problems.add(address + ": " + e.getMessage());
                    if (address.equals(leader)) {
                        leader = null;
                    }
                    continue;
                }
                if (response.code() == ResponseCode.CONTROLLER_NOT_LEADER) {
                    problems.add(address + ": " + response.remark());
                    if (address.equals(leader)) {
                        leader = null;
                    }
                    NotLeaderHeader hint = response.readHeader(NotLeaderHeader.class);
                    if (hint.leaderAddress() != null && !tried.contains(hint.leaderAddress())) {
                        queue.addFirst(hint.leaderAddress());
                    }
                    continue;
                }
                leader = address;
                return response;
            }
            if (System.currentTimeMillis() + PAUSE_BETWEEN_ROUNDS_MILLIS >= deadline) {
                throw new ControllerException(ControllerException.UNREACHABLE, "No controller leader answered within "
                        + timeoutMillis + " ms among " + String.join(";", addresses) + " ("
                        + String.join("; ", problems) + ")");
            }
            Thread.sleep(PAUSE_BETWEEN_ROUNDS_MILLIS);
        }
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
