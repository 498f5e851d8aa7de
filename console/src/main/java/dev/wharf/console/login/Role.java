package dev.wharf.console.login;

/**
 * What a signed-in user may do in the console. Both roles see every page; only {@link #ADMIN} may change the
 * cluster (create and delete topics, reset offsets, resend dead letters).
 */
public enum Role {
    READ_ONLY("read-only"),
    ADMIN("admin");

    private final String label;

    Role(String label) {
        this.label = label;
    }

    /** The name pages and messages show. */
    public String label() {
        return label;
    }
}
