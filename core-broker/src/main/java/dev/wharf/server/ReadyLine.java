package dev.wharf.server;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one line a server prints on stdout when it is ready, with the addresses it listens on (the ports it
 * really bound when asked for port 0). Scripts and tests read the addresses back with
 * {@link #nameServerAddress} and {@link #brokerAddress}.
 *
 * <pre>
 * Wharf NameServer ready at 127.0.0.1:9876
 * Wharf broker broker-a ready at 127.0.0.1:10911 (cluster DefaultCluster, NameServers 127.0.0.1:9876, store /s, ASYNC_FLUSH)
 * Wharf standalone ready: NameServer at 127.0.0.1:9876, broker broker-a at 127.0.0.1:10911 (store /s, ASYNC_FLUSH)
 * Wharf controller n0 ready at 127.0.0.1:9878 (Raft 127.0.0.1:9870, peers n0,n1,n2, data /c0)
 * </pre>
 */
public final class ReadyLine {

    private static final Pattern NAME_SERVER = Pattern.compile("NameServer (?:ready )?at ([^\\s,()]+)");
    private static final Pattern BROKER = Pattern.compile("broker [^\\s,]+ (?:ready )?at ([^\\s,()]+)");
    private static final Pattern CONTROLLER = Pattern.compile("^Wharf controller [^\\s,]+ ready at ([^\\s,()]+)");

    private ReadyLine() {
    }

    static String nameServer(String address) {
        return "Wharf NameServer ready at " + address;
    }

    static String broker(String name, String address, String cluster, List<String> nameServers, String store,
                         String flush) {
        return "Wharf broker " + name + " ready at " + address + " (cluster " + cluster + ", NameServers "
                + (nameServers.isEmpty() ? "none: clients cannot find it, give --namesrv" : String.join(";", nameServers))
                + ", store " + store + ", " + flush + ")";
    }

    static String standalone(String nameServerAddress, String brokerName, String brokerAddress, String store,
                             String flush) {
        return "Wharf standalone ready: NameServer at " + nameServerAddress + ", broker " + brokerName + " at "
                + brokerAddress + " (store " + store + ", " + flush + ")";
    }

    static String controller(String id, String address, String raftAddress, String peerIds, String data) {
        return "Wharf controller " + id + " ready at " + address + " (Raft " + raftAddress + ", peers " + peerIds
                + ", data " + data + ")";
    }

    /** The controller address ("host:port") of a ready line, if it names one. */
    public static Optional<String> controllerAddress(String line) {
        return find(CONTROLLER, line);
    }

    /** The NameServer address ("host:port") of a ready line, if it names one. */
    public static Optional<String> nameServerAddress(String line) {
        return find(NAME_SERVER, line);
    }

    /** The broker address ("host:port") of a ready line, if it names one. */
    public static Optional<String> brokerAddress(String line) {
        return find(BROKER, line);
    }

    private static Optional<String> find(Pattern pattern, String line) {
        if (line == null || !line.startsWith("Wharf ")) {
            return Optional.empty();
        }
        Matcher m = pattern.matcher(line);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
