package dev.wharf.jms.message;

import jakarta.jms.MessageFormatException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Which classes {@link jakarta.jms.ObjectMessage#getObject()} may deserialize.
 *
 * <p>Deserializing bytes from the network runs code of every class named in them; a sender who can put a
 * "gadget" class of the receiver's class path into an object message can take over the receiver. So by default
 * only the classes of four JDK packages are trusted, as ActiveMQ trusts a short list of packages since 5.12.2:
 * {@code java.lang}, {@code java.util}, {@code java.time} and {@code java.math} (each package itself, not its
 * sub-packages: {@code java.lang.invoke} or {@code java.util.concurrent} are not trusted). The application adds its
 * own message classes with the allow list (the factory option {@code deserializationAllowList}, e.g.
 * {@code com.example.orders}); {@code *} restores the old behaviour of trusting every class, which is only safe when
 * every sender is trusted.
 *
 * <p>Both lists hold comma-separated package or class names; an entry matches the class of that name, its nested
 * classes and every class in that package or its sub-packages; {@code *} matches every class. The deny list wins
 * over the allow list and over the trusted JDK packages. Arrays are judged by their element class. The JVM-wide
 * filter ({@code jdk.serialFilter}), if any, still applies as well. Immutable and thread-safe.
 */
public final class DeserializationPolicy implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    /** Allows every class ({@code deserializationAllowList=*}): safe only when every sender is trusted. */
    public static final DeserializationPolicy ALLOW_ALL = new DeserializationPolicy(List.of("*"), List.of());

    /** The default: the classes of {@link #TRUSTED_PACKAGES} only. */
    public static final DeserializationPolicy DEFAULT = new DeserializationPolicy(List.of(), List.of());

    /** Packages whose classes are always trusted (unless denied); each package itself, not its sub-packages. */
    public static final Set<String> TRUSTED_PACKAGES = Set.of("java.lang", "java.util", "java.time", "java.math");

    private final List<String> allow;
    private final List<String> deny;

    private DeserializationPolicy(List<String> allow, List<String> deny) {
        this.allow = List.copyOf(allow);
        this.deny = List.copyOf(deny);
    }

    /**
     * Builds a policy from comma-separated lists; null or blank means an empty list.
     *
     * @throws IllegalArgumentException when an entry is not a package or class name
     */
    public static DeserializationPolicy of(String allowList, String denyList) {
        List<String> allow = parse(allowList, "deserializationAllowList");
        List<String> deny = parse(denyList, "deserializationDenyList");
        if (deny.isEmpty() && allow.isEmpty()) {
            return DEFAULT;
        }
        return deny.isEmpty() && allow.equals(List.of("*")) ? ALLOW_ALL : new DeserializationPolicy(allow, deny);
    }

    private static List<String> parse(String list, String option) {
        if (list == null || list.isBlank()) {
            return List.of();
        }
        return Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).peek(entry -> {
            if (!entry.equals("*") && !isQualifiedName(entry)) {
                throw new IllegalArgumentException("The " + option + " entry \"" + entry + "\" is not a package or"
                        + " class name; write names such as com.example.orders or com.example.Order, or * for all.");
            }
        }).toList();
    }

    private static boolean isQualifiedName(String s) {
        for (String part : s.split("\\.", -1)) {
            if (part.isEmpty() || !Character.isJavaIdentifierStart(part.charAt(0))) {
                return false;
            }
            for (int i = 1; i < part.length(); i++) {
                if (!Character.isJavaIdentifierPart(part.charAt(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether objects of the class of this name may be deserialized. */
    public boolean isAllowed(String className) {
        if (matchesAny(deny, className)) {
            return false;
        }
        return isTrustedJdkClass(className) || matchesAny(allow, className);
    }

    private static boolean isTrustedJdkClass(String className) {
        int dot = className.lastIndexOf('.');
        return dot > 0 && TRUSTED_PACKAGES.contains(className.substring(0, dot));
    }

    private static boolean matchesAny(List<String> entries, String className) {
        for (String e : entries) {
            if (e.equals("*") || className.equals(e) || (className.startsWith(e) && className.length() > e.length()
                    && (className.charAt(e.length()) == '.' || className.charAt(e.length()) == '$'))) {
                return true;
            }
        }
        return false;
    }

    /** Whether this policy lets everything through ({@code deserializationAllowList=*} and no deny list). */
    public boolean allowsAll() {
        return allow.contains("*") && deny.isEmpty();
    }

    /**
     * Deserializes bytes written by {@link java.io.ObjectOutputStream}, resolving classes with the thread's
     * context class loader first (application servers load message classes there).
     *
     * @throws MessageFormatException when a class is refused, missing, or the bytes are damaged
     */
    public Object deserialize(byte[] bytes) throws MessageFormatException {
        String[] refused = new String[1];
        try (PolicyInputStream in = new PolicyInputStream(new ByteArrayInputStream(bytes))) {
            ObjectInputFilter mine = info -> {
                Class<?> c = info.serialClass();
                if (c == null) {
                    return ObjectInputFilter.Status.UNDECIDED;
                }
                while (c.isArray()) {
                    c = c.getComponentType();
                }
                if (c.isPrimitive() || isAllowed(c.getName())) {
                    return ObjectInputFilter.Status.ALLOWED;
                }
                refused[0] = c.getName();
                return ObjectInputFilter.Status.REJECTED;
            };
            ObjectInputFilter jvmWide = in.getObjectInputFilter();
            in.setObjectInputFilter(jvmWide == null ? mine : ObjectInputFilter.merge(mine, jvmWide));
            return in.readObject();
        } catch (InvalidClassException e) {
            if (refused[0] != null) {
                throw withCause(new MessageFormatException("The object message holds an instance of "
                        + refused[0] + ", which the deserialization policy refuses (" + describe() + "); if you"
                        + " trust the sender, add the class or its package to the connection factory's"
                        + " deserializationAllowList option (URL ?deserializationAllowList=..., Spring"
                        + " wharf.options.deserialization-allow-list), and remove it from deserializationDenyList."),
                        e);
            }
            throw withCause(new MessageFormatException("The object in the message cannot be deserialized: "
                    + e.getMessage() + "; sender and receiver need compatible versions of the class."), e);
        } catch (ClassNotFoundException e) {
            throw withCause(new MessageFormatException("The object message holds an instance of " + e.getMessage()
                    + ", which is not on the receiver's class path; add the class to the receiving application."), e);
        } catch (IOException | RuntimeException e) {
            throw withCause(new MessageFormatException("The object in the message cannot be deserialized ("
                    + e + "); the body is damaged or was not written by Java serialization."), e);
        }
    }

    private static MessageFormatException withCause(MessageFormatException e, Exception cause) {
        e.initCause(cause);
        e.setLinkedException(cause);
        return e;
    }

    /** What is trusted, for messages: "trusted: java.lang, ... and com.example; denied: ...". */
    private String describe() {
        if (allow.contains("*")) {
            return "trusted: every class; denied: " + String.join(", ", deny);
        }
        return "trusted: the JDK packages " + String.join(", ", TRUSTED_PACKAGES.stream().sorted().toList())
                + (allow.isEmpty() ? "" : " and " + String.join(", ", allow))
                + (deny.isEmpty() ? "" : "; denied: " + String.join(", ", deny));
    }

    @Override
    public String toString() {
        return allowsAll() ? "DeserializationPolicy[allow all]"
                : "DeserializationPolicy[allow=" + TRUSTED_PACKAGES.stream().sorted().toList()
                        + (allow.isEmpty() ? "" : " + " + allow) + ", deny=" + deny + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeserializationPolicy p && p.allow.equals(allow) && p.deny.equals(deny);
    }

    @Override
    public int hashCode() {
        return allow.hashCode() * 31 + deny.hashCode();
    }

    /** Resolves classes through the context class loader first. */
    private static final class PolicyInputStream extends ObjectInputStream {

        PolicyInputStream(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            if (context != null) {
                try {
                    return Class.forName(desc.getName(), false, context);
                } catch (ClassNotFoundException ignored) {
                    // fall back to the default resolution below (primitives, this library's loader)
                }
            }
            return super.resolveClass(desc);
        }
    }
}
