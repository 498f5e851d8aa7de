package dev.wharf.jms.message;

/** The body types of the message model, with the name stored in {@link WireProperties#BODY_TYPE}. */
public enum BodyType {
    MESSAGE("message"),
    TEXT("text"),
    BYTES("bytes"),
    MAP("map"),
    STREAM("stream"),
    OBJECT("object");

    private final String wireName;

    BodyType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The type stored under {@code name}, or null when the name is absent or unknown. */
    public static BodyType ofWireName(String name) {
        if (name != null) {
            for (BodyType t : values()) {
                if (t.wireName.equals(name)) {
                    return t;
                }
            }
        }
        return null;
    }
}
