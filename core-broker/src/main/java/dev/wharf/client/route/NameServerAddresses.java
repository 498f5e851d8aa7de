package dev.wharf.client.route;

import java.util.ArrayList;
import java.util.List;

/**
 * The configured NameServers and the order to try them in. The NameServer that answered last is tried first,
 * so a dead NameServer costs one failed attempt, not one per call; the others follow in configured order.
 * Thread-safe.
 */
public final class NameServerAddresses {

    private final List<String> addresses;
    private volatile int preferred;

    private NameServerAddresses(List<String> addresses) {
        this.addresses = List.copyOf(addresses);
    }

    /**
     * Parses {@code "host:port;host:port"} (';' or ',' separate, blanks ignored).
     *
     * @throws IllegalArgumentException naming the bad entry, or saying that none is configured
     */
    public static NameServerAddresses parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("No NameServer address is configured: set ClientConfig.namesrvAddr to "
                    + "\"host:port\" (several separated by ';'), e.g. \"127.0.0.1:9876\".");
        }
        List<String> out = new ArrayList<>();
        for (String part : spec.split("[;,]")) {
            String address = part.trim();
            if (address.isEmpty()) {
                continue;
            }
            checkAddress(address, spec);
            if (!out.contains(address)) {
                out.add(address);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("The NameServer address \"" + spec + "\" lists no address; give "
                    + "\"host:port\" (several separated by ';').");
        }
        return new NameServerAddresses(out);
    }

    private static void checkAddress(String address, String spec) {
        int colon = address.lastIndexOf(':');
        boolean ok = colon > 0 && colon < address.length() - 1;
        if (ok) {
            try {
                int port = Integer.parseInt(address.substring(colon + 1));
                ok = port > 0 && port <= 65_535;
            } catch (NumberFormatException e) {
                ok = false;
            }
        }
        if (!ok) {
            throw new IllegalArgumentException("The NameServer address \"" + address + "\" in \"" + spec
                    + "\" is not host:port with a port of 1..65535, e.g. \"127.0.0.1:9876\".");
        }
    }

    public List<String> all() {
        return addresses;
    }

    /** Every address, the one that answered last first. */
    public List<String> inTryOrder() {
        int first = preferred;
        List<String> order = new ArrayList<>(addresses.size());
        for (int i = 0; i < addresses.size(); i++) {
            order.add(addresses.get((first + i) % addresses.size()));
        }
        return order;
    }

    /** Remembers that {@code address} answered, so it is tried first next time. */
    public void markAnswered(String address) {
        int index = addresses.indexOf(address);
        if (index >= 0) {
            preferred = index;
        }
    }

    @Override
    public String toString() {
        return String.join(";", addresses);
    }
}
