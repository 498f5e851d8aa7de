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
 * "gadget" class of the receiver's class path into an object message can take over the receiver. The default
 * policy denies nothing, for compatibility with applications that have always used object messages, and is
 * therefore only safe when every sender is trusted. Set an allow list (the factory option
 * {@code deserializationAllowList}) to the packages of your message classes to close the hole.
 *
 * <p>Both lists hold comma-separated package or class names; an entry matches the class of that name, its nested
 * classes and every class in that package or its sub-packages; {@code *} matches every class. The deny list wins
 * over the allow list. An empty allow list allows every class not denied. A non-empty allow list also admits the
 * primitive wrappers, {@code Number}, {@code String} and {@code Enum} (unless denied), since almost every object
 * graph needs them. Arrays are judged by their element class. The JVM-wide filter ({@code jdk.serialFilter}), if
 * any, still applies as well. Immutable and thread-safe.
 */
public final class DeserializationPolicy implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    /** Allows every class: safe only when every sender is trusted. */
    public static final DeserializationPolicy ALLOW_ALL = new DeserializationPolicy(List.of(), List.of());

    private static final Set<String> ALWAYS_ALLOWED = Set.of("java.lang.Boolean", "java.lang.Byte",
            "java.lang.Short", "java.lang.Character", "java.lang.Integer", "java.lang.Long", "java.lang.Float",
            "java.lang.Double", "java.lang.Number", "java.lang.String", "java.lang.Enum");

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
        return allow.isEmpty() && deny.isEmpty() ? ALLOW_ALL : new DeserializationPolicy(allow, deny);
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
        return allow.isEmpty() || ALWAYS_ALLOWED.contains(className) || matchesAny(allow, className);
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

    /** Whether this policy lets everything through (the default). */
    public boolean allowsAll() {
        return allow.isEmpty() && deny.isEmpty();
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
                        + refused[0] + ", which the deserialization policy refuses; if you trust the sender, add"
                        + " the class or its package to deserializationAllowList (and remove it from"
                        + " deserializationDenyList)."), e);
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

    @Override
    public String toString() {
        return allowsAll() ? "DeserializationPolicy[allow all]"
                : "DeserializationPolicy[allow=" + (allow.isEmpty() ? "all" : allow) + ", deny=" + deny + "]";
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
