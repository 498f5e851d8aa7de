package dev.wharf.jms.it.foreign;

import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The other provider's map message, over a plain map; conversions are only the obvious ones. */
public final class ForeignMapMessage extends ForeignMessage implements MapMessage {

    private final Map<String, Object> map = new LinkedHashMap<>();

    @Override
    public Object getObject(String name) {
        Object v = map.get(name);
        return v instanceof byte[] b ? b.clone() : v;
    }

    @Override
    public void setObject(String name, Object value) {
        map.put(name, value instanceof byte[] b ? b.clone() : value);
    }

    private <T> T get(String name, Class<T> type) throws JMSException {
        Object v = map.get(name);
        if (v != null && !type.isInstance(v)) {
            throw new MessageFormatException(name + " is not a " + type.getSimpleName());
        }
        return type.cast(v);
    }

    @Override
    public boolean getBoolean(String name) throws JMSException {
        return get(name, Boolean.class);
    }

    @Override
    public byte getByte(String name) throws JMSException {
        return get(name, Byte.class);
    }

    @Override
    public short getShort(String name) throws JMSException {
        return get(name, Short.class);
    }

    @Override
    public char getChar(String name) throws JMSException {
        return get(name, Character.class);
    }

    @Override
    public int getInt(String name) throws JMSException {
        return get(name, Integer.class);
    }

    @Override
    public long getLong(String name) throws JMSException {
        return get(name, Long.class);
    }

    @Override
    public float getFloat(String name) throws JMSException {
        return get(name, Float.class);
    }

    @Override
    public double getDouble(String name) throws JMSException {
        return get(name, Double.class);
    }

    @Override
    public String getString(String name) {
        Object v = map.get(name);
        return v == null ? null : v.toString();
    }

    @Override
    public byte[] getBytes(String name) throws JMSException {
        byte[] b = get(name, byte[].class);
        return b == null ? null : b.clone();
    }

    @Override
    public Enumeration<String> getMapNames() {
        return Collections.enumeration(List.copyOf(map.keySet()));
    }

    @Override
    public boolean itemExists(String name) {
        return map.containsKey(name);
    }

    @Override
    public void setBoolean(String name, boolean value) {
        map.put(name, value);
    }

    @Override
    public void setByte(String name, byte value) {
        map.put(name, value);
    }

    @Override
    public void setShort(String name, short value) {
        map.put(name, value);
    }

    @Override
    public void setChar(String name, char value) {
        map.put(name, value);
    }

    @Override
    public void setInt(String name, int value) {
        map.put(name, value);
    }

    @Override
    public void setLong(String name, long value) {
        map.put(name, value);
    }

    @Override
    public void setFloat(String name, float value) {
        map.put(name, value);
    }

    @Override
    public void setDouble(String name, double value) {
        map.put(name, value);
    }

    @Override
    public void setString(String name, String value) {
        map.put(name, value);
    }

    @Override
    public void setBytes(String name, byte[] value) {
        map.put(name, value == null ? null : value.clone());
    }

    @Override
    public void setBytes(String name, byte[] value, int offset, int length) {
        byte[] part = new byte[length];
        System.arraycopy(value, offset, part, 0, length);
        map.put(name, part);
    }

    @Override
    public void clearBody() {
        map.clear();
    }

    @Override
    Object body() {
        return map.isEmpty() ? null : new LinkedHashMap<>(map);
    }
}
