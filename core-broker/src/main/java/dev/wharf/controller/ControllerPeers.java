package dev.wharf.controller;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The parsed {@code controllerPeers} value: node id to Raft address ("host:port"), in the order given.
 */
public record ControllerPeers(Map<String, String> raftAddresses) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    public ControllerPeers {
        raftAddresses = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(raftAddresses));
    }

    /**
     * @throws IllegalArgumentException naming the bad part, with the expected form
     */
    public static ControllerPeers parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("controllerPeers is empty; give every controller node as "
                    + "id=host:port separated by ',' (e.g. n0=127.0.0.1:9870,n1=127.0.0.1:9871,n2=127.0.0.1:9872)");
        }
        Map<String, String> peers = new LinkedHashMap<>();
        for (String part : spec.split("[,;]")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("controller peer '" + p + "' is not id=host:port "
                        + "(e.g. n0=127.0.0.1:9870)");
            }
            String id = p.substring(0, eq).trim();
            String address = p.substring(eq + 1).trim();
            if (!ID.matcher(id).matches()) {
                throw new IllegalArgumentException("controller peer id '" + id + "' must be 1-64 letters, digits, "
                        + "'_', '.' or '-'");
            }
            checkAddress(id, address);
            if (peers.put(id, address) != null) {
                throw new IllegalArgumentException("controller peer id '" + id + "' is listed twice in " + spec);
            }
        }
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("controllerPeers '" + spec + "' names no node");
        }
        return new ControllerPeers(peers);
    }

    private static void checkAddress(String id, String address) {
        int colon = address.lastIndexOf(':');
        String problem = null;
        if (colon <= 0 || colon == address.length() - 1) {
            problem = "is not host:port";
        } else {
            try {
                int port = Integer.parseInt(address.substring(colon + 1));
                if (port < 1 || port > 65_535) {
                    problem = "has port " + port + ", not 1-65535";
                }
            } catch (NumberFormatException e) {
                problem = "has a port that is not a number";
            }
        }
        if (problem != null) {
            throw new IllegalArgumentException("the Raft address '" + address + "' of controller peer " + id + " "
                    + problem + " (e.g. " + id + "=127.0.0.1:9870)");
        }
    }

    public List<String> ids() {
        return new ArrayList<>(raftAddresses.keySet());
    }

    /** The port of a node's Raft address. */
    public int port(String id) {
        String a = raftAddresses.get(id);
        return Integer.parseInt(a.substring(a.lastIndexOf(':') + 1));
    }

    public String host(String id) {
        String a = raftAddresses.get(id);
        return a.substring(0, a.lastIndexOf(':'));
    }
}
