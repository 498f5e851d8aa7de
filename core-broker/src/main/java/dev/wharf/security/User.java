package dev.wharf.security;

import java.util.List;
import java.util.Objects;

/**
 * A user of the users file: name, stored password hash ({@link PasswordHasher}), whether it is a super user (every
 * right, like RocketMQ's Super user type) and its policies.
 */
public record User(String name, String passwordHash, boolean superUser, List<Policy> policies) {

    public User {
        PasswordHasher.checkUser(name);
        Objects.requireNonNull(passwordHash, "passwordHash");
        policies = List.copyOf(policies);
    }

    /** The user with the policies replaced. */
    public User withPolicies(List<Policy> replaced) {
        return new User(name, passwordHash, superUser, replaced);
    }

    /** Keeps the hash out of log lines. */
    @Override
    public String toString() {
        return "User{" + name + (superUser ? ", super" : "") + ", " + policies.size() + " policies}";
    }
}
