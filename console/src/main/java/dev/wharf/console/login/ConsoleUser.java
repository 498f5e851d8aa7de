package dev.wharf.console.login;

import java.io.Serial;
import java.io.Serializable;
import java.security.Principal;

/** A signed-in user of the console: kept in the session, and the principal of its requests (the audit log's who). */
public record ConsoleUser(String name, Role role) implements Principal, Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    @Override
    public String getName() {
        return name;
    }
}
