package dev.wharf.spring.support;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.springframework.core.MethodParameter;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.converter.AbstractMessageConverter;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.util.MimeType;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Payloads as JSON through Jackson 3 (the Jackson the Wharf client itself uses, so it serves Spring Boot 3 and 4
 * alike). Reads into the declared parameter type, generics included ({@code List<Order>}); a body that is not JSON
 * of that type fails the conversion, which a listener treats as a failed consumption (retried, then dead-lettered).
 * Thread-safe.
 */
public final class WharfJsonMessageConverter extends AbstractMessageConverter {

    private final ObjectMapper mapper;

    public WharfJsonMessageConverter() {
        this(JsonMapper.builder().findAndAddModules().build());
    }

    public WharfJsonMessageConverter(ObjectMapper mapper) {
        super(new MimeType("application", "json"));
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    @Override
    protected boolean supports(Class<?> clazz) {
        return true;
    }

    @Override
    protected Object convertFromInternal(Message<?> message, Class<?> targetClass, Object conversionHint) {
        Object payload = message.getPayload();
        byte[] bytes = payload instanceof byte[] b ? b : payload.toString().getBytes(StandardCharsets.UTF_8);
        JavaType type = mapper.getTypeFactory().constructType(targetType(targetClass, conversionHint));
        try {
            return mapper.readValue(bytes, type);
        } catch (JacksonException e) {
            throw new MessageConversionException(message, "The body is not JSON of " + type + ": "
                    + e.getOriginalMessage(), e);
        }
    }

    @Override
    protected Object convertToInternal(Object payload, MessageHeaders headers, Object conversionHint) {
        try {
            return mapper.writeValueAsBytes(payload);
        } catch (JacksonException e) {
            throw new MessageConversionException("Cannot write " + payload.getClass().getName() + " as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    private static Type targetType(Class<?> targetClass, Object conversionHint) {
        if (conversionHint instanceof MethodParameter parameter) {
            MethodParameter nested = parameter.nestedIfOptional();
            return nested.getNestedGenericParameterType();
        }
        return targetClass;
    }
}
