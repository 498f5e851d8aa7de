package dev.wharf.spring.support;

import java.util.List;
import org.springframework.messaging.converter.ByteArrayMessageConverter;
import org.springframework.messaging.converter.CompositeMessageConverter;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.converter.StringMessageConverter;

/** The default payload conversion of listeners and templates: byte[] as is, String as UTF-8, the rest as JSON. */
public final class WharfMessageConverters {

    private WharfMessageConverters() {
    }

    /** A new converter: byte[] and String first (so they are never quoted as JSON), then JSON. */
    public static CompositeMessageConverter defaults() {
        return new CompositeMessageConverter(List.<MessageConverter>of(new ByteArrayMessageConverter(),
                new StringMessageConverter(), new WharfJsonMessageConverter()));
    }
}
