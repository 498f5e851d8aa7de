package dev.wharf.protocol.body;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON mapper for request and response bodies. Unknown fields are ignored so that newer peers can add
 * fields without breaking older ones.
 */
public final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private Json() {
    }

    public static JsonMapper mapper() {
        return MAPPER;
    }

    public static byte[] encode(Object body) {
        return MAPPER.writeValueAsBytes(body);
    }

    /**
     * Decodes a body.
     *
     * @throws IllegalArgumentException naming the expected type when the bytes are not such a body
     */
    public static <T> T decode(byte[] body, Class<T> type) {
        if (body == null || body.length == 0) {
            throw new IllegalArgumentException("The request has no body; a " + type.getSimpleName() + " was expected.");
        }
        try {
            return MAPPER.readValue(body, type);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("The body is not a valid " + type.getSimpleName() + ": "
                    + e.getOriginalMessage(), e);
        }
    }
}
