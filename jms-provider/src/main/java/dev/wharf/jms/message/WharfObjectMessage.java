package dev.wharf.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Objects;

/**
 * A message whose body is a serialized Java object. The object is serialized when it is set, so later changes
 * to it do not reach the message (the specification's "copy" semantics), and every {@link #getObject()}
 * deserializes a fresh copy under the {@link DeserializationPolicy} this message was created with. See the
 * policy's class comment for the risk of deserializing objects from untrusted senders.
 */
public class WharfObjectMessage extends WharfMessage implements ObjectMessage {

    private final DeserializationPolicy policy;
    /** Serialized object, or null for a null object. */
    private byte[] serialized;

    /** A message that deserializes every class; see {@link DeserializationPolicy#ALLOW_ALL}. */
    public WharfObjectMessage() {
        this(DeserializationPolicy.ALLOW_ALL);
    }

    public WharfObjectMessage(DeserializationPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    public DeserializationPolicy getDeserializationPolicy() {
        return policy;
    }

    /**
     * @throws MessageFormatException when the object (or an object it refers to) is not serializable
     */
    @Override
    public void setObject(Serializable object) throws JMSException {
        checkBodyWritable();
        serialized = object == null ? null : serialize(object);
    }

    @Override
    public Serializable getObject() throws JMSException {
        return serialized == null ? null : (Serializable) policy.deserialize(serialized);
    }

    private static byte[] serialize(Serializable object) throws MessageFormatException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (IOException e) {
            MessageFormatException mfe = new MessageFormatException("The " + object.getClass().getName()
                    + " cannot be serialized (" + e + "); make it and everything it refers to Serializable, or send"
                    + " it in another form.");
            mfe.initCause(e);
            mfe.setLinkedException(e);
            throw mfe;
        }
        return bytes.toByteArray();
    }

    @Override
    public BodyType bodyType() {
        return BodyType.OBJECT;
    }

    @Override
    void clearBodyContent() {
        serialized = null;
    }

    @Override
    <T> T bodyAs(Class<T> c) throws JMSException {
        Object object = getObject();
        if (object == null) {
            return null;
        }
        if (!c.isInstance(object)) {
            throw notAssignable("object message", c, "a class the body's " + object.getClass().getName()
                    + " is assignable to, such as Serializable.class");
        }
        return c.cast(object);
    }

    /** False, not an exception, when the object cannot be deserialized, as the specification says. */
    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) {
        if (serialized == null) {
            return true;
        }
        try {
            return c.isInstance(policy.deserialize(serialized));
        } catch (MessageFormatException e) {
            return false;
        }
    }

    @Override
    byte[] encodeBody() {
        return serialized;
    }

    @Override
    void decodeBody(byte[] body) {
        serialized = body == null || body.length == 0 ? null : body;
    }
}
