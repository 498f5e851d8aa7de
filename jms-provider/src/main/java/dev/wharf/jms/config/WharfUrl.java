package dev.wharf.jms.config;

import java.io.ByteArrayOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A parsed broker URL. Two forms:
 * <ul>
 *   <li>{@code wharf://host:port[,host:port...][?params]}: the addresses of the NameServers. A port may be left
 *       out and defaults to {@value #DEFAULT_NAMESRV_PORT}; IPv6 hosts go in brackets ({@code [::1]:9876}).</li>
 *   <li>{@code vm://name[?params]}: a broker inside this JVM, shared by every factory that uses the same name.</li>
 * </ul>
 * Parameters are {@code key=value} pairs separated by {@code &}; values may use %-escapes ({@code +} is a plus,
 * not a space). The scheme is case-insensitive. A malformed URL is refused with a sentence naming the bad part.
 * Immutable and serializable (the serial form is the text, parsed again on reading).
 */
public final class WharfUrl implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    public static final int DEFAULT_NAMESRV_PORT = 9876;

    /** The two kinds of URL. */
    public enum Scheme {
        /** NameServer addresses of a running broker cluster. */
        WHARF,
        /** A broker started inside this JVM. */
        VM
    }

    private static final String FORMS = "write wharf://host:port[,host:port] for NameServers or vm://name for a"
            + " broker inside this JVM";

    private final String text;
    private final transient Scheme scheme;
    private final transient List<String> addresses;
    private final transient String vmName;
    private final transient Map<String, String> parameters;

    private WharfUrl(String text, Scheme scheme, List<String> addresses, String vmName, Map<String, String> parameters) {
        this.text = text;
        this.scheme = scheme;
        this.addresses = addresses;
        this.vmName = vmName;
        this.parameters = parameters;
    }

    /**
     * Parses a broker URL.
     *
     * @throws IllegalArgumentException with a sentence naming the malformed part
     */
    public static WharfUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("The broker URL is empty; " + FORMS + ".");
        }
        String text = url.strip();
        int colon = text.indexOf("://");
        if (colon <= 0) {
            throw bad(text, "has no scheme", FORMS);
        }
        String schemeText = text.substring(0, colon).toLowerCase(Locale.ROOT);
        Scheme scheme = switch (schemeText) {
            case "wharf" -> Scheme.WHARF;
            case "vm" -> Scheme.VM;
            default -> throw bad(text, "has the scheme \"" + text.substring(0, colon) + "\", which Wharf does not"
                    + " know", FORMS);
        };
        String rest = text.substring(colon + 3);
        int hash = rest.indexOf('#');
        if (hash >= 0) {
            throw bad(text, "has a fragment \"" + rest.substring(hash) + "\"", "remove it");
        }
        int question = rest.indexOf('?');
        String authority = question < 0 ? rest : rest.substring(0, question);
        Map<String, String> params = question < 0 ? new LinkedHashMap<>() : parameters(text, rest.substring(question + 1));
        int slash = authority.indexOf('/');
        if (slash >= 0) {
            throw bad(text, "has a path \"" + authority.substring(slash) + "\"", "parameters go after a '?'");
        }
        Map<String, String> frozen = Collections.unmodifiableMap(params);
        if (scheme == Scheme.VM) {
            return new WharfUrl(text, scheme, List.of(), vmName(text, authority), frozen);
        }
        return new WharfUrl(text, scheme, addresses(text, authority), null, frozen);
    }

    private static String vmName(String text, String name) {
        if (name.isEmpty()) {
            throw bad(text, "names no broker", "write vm://name, e.g. vm://local");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128) && c != '_' && c != '-' && c != '.') {
                throw bad(text, "has the character '" + c + "' in the broker name \"" + name + "\"",
                        "use letters, digits, '_', '-' and '.'");
            }
        }
        return name;
    }

    private static List<String> addresses(String text, String authority) {
        if (authority.isEmpty()) {
            throw bad(text, "names no NameServer", "write wharf://host:port, e.g. wharf://localhost:"
                    + DEFAULT_NAMESRV_PORT);
        }
        List<String> out = new ArrayList<>();
        for (String address : authority.split(",", -1)) {
            out.add(address(text, address.strip()));
        }
        return List.copyOf(out);
    }

    private static String address(String text, String address) {
        if (address.isEmpty()) {
            throw bad(text, "has an empty NameServer address", "separate host:port pairs with single commas");
        }
        String host;
        String port;
        if (address.startsWith("[")) {
            int close = address.indexOf(']');
            if (close < 0) {
                throw bad(text, "has the IPv6 address \"" + address + "\" without a closing ']'", "write [::1]:9876");
            }
            host = address.substring(0, close + 1);
            String after = address.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw bad(text, "has \"" + after + "\" after the IPv6 address " + host, "write [address]:port");
            }
            port = after.isEmpty() ? null : after.substring(1);
            String inner = host.substring(1, host.length() - 1);
            if (inner.isEmpty() || !inner.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                throw bad(text, "has the malformed IPv6 address \"" + host + "\"", "write it like [::1]");
            }
        } else {
            int c = address.lastIndexOf(':');
            host = c < 0 ? address : address.substring(0, c);
            port = c < 0 ? null : address.substring(c + 1);
            if (host.isEmpty()) {
                throw bad(text, "has the address \"" + address + "\" without a host", "write host:port");
            }
            for (int i = 0; i < host.length(); i++) {
                char ch = host.charAt(i);
                if (!(Character.isLetterOrDigit(ch) && ch < 128) && ch != '-' && ch != '.' && ch != '_') {
                    throw bad(text, "has the character '" + ch + "' in the host \"" + host + "\"",
                            "hosts are names or IPv4 addresses; put IPv6 addresses in brackets");
                }
            }
        }
        int portNumber = DEFAULT_NAMESRV_PORT;
        if (port != null) {
            try {
                portNumber = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                portNumber = -1;
            }
            if (portNumber < 1 || portNumber > 65535) {
                throw bad(text, "has the port \"" + port + "\" in \"" + address + "\"", "give a port from 1 to 65535");
            }
        }
        return host + ":" + portNumber;
    }

    private static Map<String, String> parameters(String text, String query) {
        Map<String, String> out = new LinkedHashMap<>();
        if (query.isEmpty()) {
            return out;
        }
        for (String pair : query.split("&", -1)) {
            if (pair.isEmpty()) {
                throw bad(text, "has an empty parameter", "separate key=value pairs with single '&'s");
            }
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw bad(text, "has the parameter \"" + pair + "\" without a value", "write " + pair + "=value");
            }
            String key = decode(text, pair.substring(0, eq)).strip();
            if (key.isEmpty()) {
                throw bad(text, "has a parameter without a name (\"" + pair + "\")", "write key=value");
            }
            String value = decode(text, pair.substring(eq + 1));
            if (out.put(key, value) != null) {
                throw bad(text, "sets the parameter \"" + key + "\" twice", "keep one");
            }
        }
        return out;
    }

    /** %-decoding as in URIs: '+' stays a plus. */
    private static String decode(String text, String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
                if (lo < 0) {
                    throw bad(text, "has a malformed %-escape in \"" + s + "\"", "write % as %25");
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static IllegalArgumentException bad(String text, String problem, String advice) {
        return new IllegalArgumentException("The broker URL \"" + text + "\" " + problem + "; " + advice + ".");
    }

    public Scheme scheme() {
        return scheme;
    }

    public boolean isVm() {
        return scheme == Scheme.VM;
    }

    /** NameServer addresses as {@code host:port} (empty for vm://). */
    public List<String> addresses() {
        return addresses;
    }

    /** The in-JVM broker's name (null for wharf://). */
    public String vmName() {
        return vmName;
    }

    /** The query parameters in URL order, decoded. */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** The URL as given (stripped). */
    public String text() {
        return text;
    }

    @Serial
    private Object readResolve() {
        return parse(text);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WharfUrl u && u.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
