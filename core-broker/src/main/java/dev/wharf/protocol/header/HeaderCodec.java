package dev.wharf.protocol.header;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps header records to and from a command's {@code extFields} (string to string), the way RocketMQ carries
 * typed headers in its JSON frame header. Each record class is introspected once; after that a header costs
 * one map and the string conversions of its fields. Supported component types: String, int, long, boolean,
 * Integer, Long, Boolean and enums. A null component is left out of the map.
 */
public final class HeaderCodec {

    private static final Map<Class<?>, Shape> SHAPES = new ConcurrentHashMap<>();

    private HeaderCodec() {
    }

    /** Encodes a header record into a new extFields map. */
    public static Map<String, String> encode(Record header) {
        Shape shape = shape(header.getClass());
        Map<String, String> ext = new HashMap<>(shape.fields.length * 2);
        try {
            for (Field f : shape.fields) {
                Object value = (Object) f.accessor.invokeExact((Object) header);
                if (value != null) {
                    ext.put(f.name, value instanceof Enum<?> e ? e.name() : value.toString());
                }
            }
        } catch (Throwable t) {
            throw new IllegalStateException("Cannot encode header " + header.getClass().getSimpleName(), t);
        }
        return ext;
    }

    /**
     * Decodes a header record from extFields.
     *
     * @throws HeaderException naming the field when a required field is missing or a value has the wrong form
     */
    public static <T extends Record> T decode(Map<String, String> ext, Class<T> type) {
        Shape shape = shape(type);
        Object[] args = new Object[shape.fields.length];
        for (int i = 0; i < shape.fields.length; i++) {
            Field f = shape.fields[i];
            String raw = ext == null ? null : ext.get(f.name);
            if (raw == null) {
                if (f.required) {
                    throw new HeaderException("The request has no \"" + f.name + "\" field (" + type.getSimpleName()
                            + "); the client must send it.");
                }
                args[i] = defaultValue(f.type);
            } else {
                args[i] = parse(f, raw, type);
            }
        }
        try {
            @SuppressWarnings("unchecked")
            T header = (T) (Object) shape.constructor.invokeExact(args);
            return header;
        } catch (HeaderException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new HeaderException("Invalid " + type.getSimpleName() + ": " + e.getMessage());
        } catch (Throwable t) {
            throw new IllegalStateException("Cannot decode header " + type.getSimpleName(), t);
        }
    }

    private static Object parse(Field f, String raw, Class<?> owner) {
        Class<?> t = f.type;
        try {
            if (t == String.class) {
                return raw;
            }
            if (t == int.class || t == Integer.class) {
                return Integer.parseInt(raw.trim());
            }
            if (t == long.class || t == Long.class) {
                return Long.parseLong(raw.trim());
            }
            if (t == boolean.class || t == Boolean.class) {
                String v = raw.trim();
                if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                    throw new IllegalArgumentException("not true/false");
                }
                return Boolean.parseBoolean(v);
            }
            if (t.isEnum()) {
                @SuppressWarnings({"unchecked", "rawtypes"})
                Object e = Enum.valueOf((Class<? extends Enum>) t, raw.trim());
                return e;
            }
        } catch (IllegalArgumentException e) {
            throw new HeaderException("The field \"" + f.name + "\" of " + owner.getSimpleName() + " has the value \""
                    + raw + "\", which is not a valid " + t.getSimpleName() + ".");
        }
        throw new IllegalStateException("Unsupported header component type " + t + " in " + owner.getName());
    }

    private static Object defaultValue(Class<?> type) {
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == boolean.class) {
            return false;
        }
        return null;
    }

    private static Shape shape(Class<?> type) {
        return SHAPES.computeIfAbsent(type, HeaderCodec::introspect);
    }

    private static Shape introspect(Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            RecordComponent[] components = type.getRecordComponents();
            Field[] fields = new Field[components.length];
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                RecordComponent c = components[i];
                types[i] = c.getType();
                boolean required = c.getType().isPrimitive() && c.getType() != boolean.class
                        || c.isAnnotationPresent(Required.class);
                // exact (Object)Object handles: invokeExact then costs a call, where a generic invoke adapts types
                fields[i] = new Field(c.getName(), c.getType(), required,
                        lookup.unreflect(c.getAccessor()).asType(MethodType.methodType(Object.class, Object.class)));
            }
            Constructor<?> ctor = type.getDeclaredConstructor(types);
            MethodHandle constructor = lookup.unreflectConstructor(ctor).asSpreader(Object[].class, types.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
            return new Shape(fields, constructor);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot introspect header " + type.getName(), e);
        }
    }

    private record Field(String name, Class<?> type, boolean required, MethodHandle accessor) {
    }

    private record Shape(Field[] fields, MethodHandle constructor) {
    }
}
