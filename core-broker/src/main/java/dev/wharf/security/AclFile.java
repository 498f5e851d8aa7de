package dev.wharf.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The users and policies file (default {@code {storePathRootDir}/config/acl.json} on a broker), JSON:
 * <pre>
 * {
 *   "users": [
 *     { "name": "admin", "password": "pbkdf2-sha256$120000$...$...", "super": true },
 *     { "name": "orders-app", "password": "pbkdf2-sha256$120000$...$...",
 *       "policies": [
 *         { "resource": "topic:orders",   "actions": ["PUB", "SUB"] },
 *         { "resource": "group:orders-*", "actions": ["SUB"] },
 *         { "resource": "topic:orders-audit", "actions": ["SUB"], "decision": "DENY" } ] }
 *   ]
 * }
 * </pre>
 * {@code password} holds the stored hash ({@link PasswordHasher}), never a password; {@code super} defaults to
 * false and {@code decision} to ALLOW. The file is written atomically (temporary file, then rename) and readable by
 * its owner only where the file system has POSIX permissions.
 */
public final class AclFile {

    private static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private AclFile() {
    }

    /**
     * The users of the file, in file order; an empty list when the file does not exist.
     *
     * @throws IOException the file cannot be read, or it is not a valid users file (the message says where)
     */
    public static List<User> read(Path path) throws IOException {
        if (!Files.exists(path)) {
            return List.of();
        }
        String text = Files.readString(path, StandardCharsets.UTF_8);
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JacksonException e) {
            throw new IOException(path + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
        try {
            return parse(root);
        } catch (IllegalArgumentException e) {
            throw new IOException(path + ": " + e.getMessage(), e);
        }
    }

    /** Replaces the file atomically with these users. */
    public static void write(Path path, List<User> users) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode list = root.putArray("users");
        for (User u : users) {
            ObjectNode node = list.addObject();
            node.put("name", u.name());
            node.put("password", u.passwordHash());
            if (u.superUser()) {
                node.put("super", true);
            }
            if (!u.policies().isEmpty()) {
                ArrayNode policies = node.putArray("policies");
                for (Policy p : u.policies()) {
                    ObjectNode pn = policies.addObject();
                    pn.put("resource", p.resource().toString());
                    ArrayNode actions = pn.putArray("actions");
                    for (Action a : EnumSet.copyOf(p.actions().isEmpty() ? EnumSet.noneOf(Action.class)
                            : EnumSet.copyOf(p.actions()))) {
                        actions.add(a.name());
                    }
                    if (!p.allow()) {
                        pn.put("decision", "DENY");
                    }
                }
            }
        }
        Path dir = path.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, path.getFileName().toString(), ".tmp");
        try {
            ownerOnly(tmp);
            Files.writeString(tmp, MAPPER.writeValueAsString(root) + "\n", StandardCharsets.UTF_8);
            try {
                Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void ownerOnly(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its own access control applies
        }
    }

    private static List<User> parse(JsonNode root) {
        JsonNode users = root.get("users");
        if (users == null || !users.isArray()) {
            throw new IllegalArgumentException("the top level needs a \"users\" array");
        }
        Map<String, User> out = new LinkedHashMap<>();
        int index = 0;
        for (JsonNode node : users) {
            String where = "users[" + index++ + "]";
            String name = text(node, "name", where);
            String password = text(node, "password", where + " (" + name + ")");
            PasswordHasher.keyOf(name, password);
            boolean superUser = node.has("super") && node.get("super").asBoolean();
            List<Policy> policies = new ArrayList<>();
            JsonNode list = node.get("policies");
            if (list != null) {
                int p = 0;
                for (JsonNode pn : list) {
                    policies.add(policy(pn, where + ".policies[" + p++ + "] of user " + name));
                }
            }
            if (out.put(name, new User(name, password, superUser, policies)) != null) {
                throw new IllegalArgumentException("user '" + name + "' is listed twice; keep one entry");
            }
        }
        return List.copyOf(out.values());
    }

    private static Policy policy(JsonNode node, String where) {
        ResourcePattern resource = ResourcePattern.parse(text(node, "resource", where));
        JsonNode actions = node.get("actions");
        if (actions == null || !actions.isArray() || actions.isEmpty()) {
            throw new IllegalArgumentException(where + " needs an \"actions\" array, e.g. [\"PUB\", \"SUB\"]");
        }
        Set<Action> set = EnumSet.noneOf(Action.class);
        for (JsonNode a : actions) {
            try {
                set.add(Action.valueOf(a.asString().trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + " names an unknown action '" + a.asString()
                        + "'; use PUB, SUB or ADMIN", e);
            }
        }
        String decision = node.has("decision") ? node.get("decision").asString().trim().toUpperCase(Locale.ROOT)
                : "ALLOW";
        if (!decision.equals("ALLOW") && !decision.equals("DENY")) {
            throw new IllegalArgumentException(where + " has decision '" + decision + "'; use ALLOW or DENY");
        }
        return new Policy(resource, set, decision.equals("ALLOW"));
    }

    private static String text(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || !value.isString() || value.asString().isBlank()) {
            throw new IllegalArgumentException(where + " needs a \"" + field + "\" string");
        }
        return value.asString();
    }
}
