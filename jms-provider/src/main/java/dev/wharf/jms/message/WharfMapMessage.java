package dev.wharf.jms.message;

import dev.wharf.jms.message.body.TypedValueReader;
import dev.wharf.jms.message.body.TypedValueWriter;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message whose body is a set of named values (primitives, their wrappers, String, byte[] and null), read
 * through the conversion table of {@link ValueConversions}. The body is readable in every mode and writable until
 * received. A received body is decoded on first use, so a damaged body fails the read with
 * {@link MessageFormatException} rather than the delivery. {@link #getBody(Class)} returns a copy of the map for
 * {@code Map.class} or {@code Object.class}.
 */
public class WharfMapMessage extends WharfMessage implements MapMessage {

    private LinkedHashMap<String, Object> map = new LinkedHashMap<>();
    /** Received body not yet decoded (null once decoded). */
    private byte[] encoded;

    public WharfMapMessage() {
    }

    private Object value(String name) throws JMSException {
        return entries().get(name);
    }

    private Map<String, Object> entries() throws JMSException {
        if (encoded != null) {
            map = TypedBodies.decode(encoded, TypedValueReader::decodeMap, "map");
            encoded = null;
        }
        return map;
    }

    private static String describe(String name) {
        return "Map entry \"" + name + "\"";
    }

    @Override
    public boolean getBoolean(String name) throws JMSException {
        return ValueConversions.toBoolean(value(name), describe(name));
    }

    @Override
    public byte getByte(String name) throws JMSException {
        return ValueConversions.toByte(value(name), describe(name));
    }

    @Override
    public short getShort(String name) throws JMSException {
        return ValueConversions.toShort(value(name), describe(name));
    }

    @Override
    public char getChar(String name) throws JMSException {
        return ValueConversions.toChar(value(name), describe(name));
    }

    @Override
    public int getInt(String name) throws JMSException {
        return ValueConversions.toInt(value(name), describe(name));
    }

    @Override
    public long getLong(String name) throws JMSException {
        return ValueConversions.toLong(value(name), describe(name));
    }

    @Override
    public float getFloat(String name) throws JMSException {
        return ValueConversions.toFloat(value(name), describe(name));
    }

    @Override
    public double getDouble(String name) throws JMSException {
        return ValueConversions.toDouble(value(name), describe(name));
    }

    @Override
    public String getString(String name) throws JMSException {
        return ValueConversions.toString(value(name), describe(name));
    }

    /** A copy of the byte[] entry, or null when the entry is absent or null. */
    @Override
    public byte[] getBytes(String name) throws JMSException {
        byte[] bytes = ValueConversions.toBytes(value(name), describe(name));
        return bytes == null ? null : bytes.clone();
    }

    /** The entry as its wrapper, String or a copy of its byte[]; null when absent. */
    @Override
    public Object getObject(String name) throws JMSException {
        Object v = value(name);
        return v instanceof byte[] b ? b.clone() : v;
    }

    @Override
    public Enumeration<String> getMapNames() throws JMSException {
        return Collections.enumeration(new ArrayList<>(entries().keySet()));
    }

    @Override
    public boolean itemExists(String name) throws JMSException {
        return entries().containsKey(name);
    }

    @Override
    public void setBoolean(String name, boolean value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setByte(String name, byte value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setShort(String name, short value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setChar(String name, char value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setInt(String name, int value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setLong(String name, long value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setFloat(String name, float value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setDouble(String name, double value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setString(String name, String value) throws JMSException {
        put(name, value);
    }

    /** Stores a copy of {@code value} (null allowed). */
    @Override
    public void setBytes(String name, byte[] value) throws JMSException {
        put(name, value == null ? null : value.clone());
    }

    @Override
    public void setBytes(String name, byte[] value, int offset, int length) throws JMSException {
        put(name, TypedBodies.copyOfRange(value, offset, length));
    }

    /**
     * Accepts the primitive wrappers (Character included), String, byte[] (copied) and null.
     *
     * @throws MessageFormatException for any other class
     */
    @Override
    public void setObject(String name, Object value) throws JMSException {
        if (value instanceof byte[] b) {
            put(name, b.clone());
            return;
        }
        if (!TypedBodies.canHold(value)) {
            checkBodyWritable();
            checkName(name);
            throw new MessageFormatException("Map entry \"" + name + "\" cannot hold a " + value.getClass().getName()
                    + "; map values are primitives, their wrappers, String or byte[].");
        }
        put(name, value);
    }

    private void put(String name, Object value) throws JMSException {
        checkBodyWritable();
        checkName(name);
        entries().put(name, value);
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("A map entry name must not be " + (name == null ? "null" : "empty")
                    + "; give every entry a name.");
        }
    }

    @Override
    public BodyType bodyType() {
        return BodyType.MAP;
    }

    @Override
    void clearBodyContent() {
        map = new LinkedHashMap<>();
        encoded = null;
    }

    @Override
    <T> T bodyAs(Class<T> c) throws JMSException {
        Map<String, Object> entries = entries();
        if (entries.isEmpty()) {
            return null;
        }
        if (!c.isAssignableFrom(Map.class)) {
            throw notAssignable("map message", c, "Map.class or Object.class");
        }
        Map<String, Object> copy = new HashMap<>(entries.size() * 2);
        entries.forEach((k, v) -> copy.put(k, v instanceof byte[] b ? b.clone() : v));
        return c.cast(copy);
    }

    /** False when the body cannot be decoded. */
    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) {
        try {
            return entries().isEmpty() || ((Class<?>) c).isAssignableFrom(Map.class);
        } catch (JMSException e) {
            return false;
        }
    }

    @Override
    byte[] encodeBody() {
        return encoded != null ? encoded : TypedValueWriter.encodeMap(map);
    }

    @Override
    void decodeBody(byte[] body) {
        map = new LinkedHashMap<>();
        encoded = body == null || body.length == 0 ? null : body;
    }
}
