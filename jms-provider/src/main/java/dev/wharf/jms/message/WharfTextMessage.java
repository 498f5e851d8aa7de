package dev.wharf.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;

/**
 * A message whose body is a String, stored as UTF-8. A null text is a body of its own (it comes back null, not
 * empty). {@link #getBody(Class)} accepts String and its supertypes (Object, CharSequence, Comparable, ...).
 */
public class WharfTextMessage extends WharfMessage implements TextMessage {

    private String text;

    public WharfTextMessage() {
    }

    public WharfTextMessage(String text) {
        this.text = text;
    }

    @Override
    public void setText(String text) throws JMSException {
        checkBodyWritable();
        this.text = text;
    }

    @Override
    public String getText() {
        return text;
    }

    @Override
    public BodyType bodyType() {
        return BodyType.TEXT;
    }

    @Override
    void clearBodyContent() {
        text = null;
    }

    @Override
    <T> T bodyAs(Class<T> c) throws JMSException {
        if (text == null) {
            return null;
        }
        if (!c.isAssignableFrom(String.class)) {
            throw notAssignable("text message", c, "String.class or a supertype of String");
        }
        return c.cast(text);
    }

    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) {
        return text == null || ((Class<?>) c).isAssignableFrom(String.class);
    }

    @Override
    byte[] encodeBody() {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    void decodeBody(byte[] body) {
        text = body == null ? null : new String(body, StandardCharsets.UTF_8);
    }
}
