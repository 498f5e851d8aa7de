package dev.wharf.broker.filter;

/**
 * Reads the {@code WHARF_PROPERTY_TYPES} property ({@code name:T,name:T}; T is Z boolean, B byte, S short,
 * I int, J long, F float, D double) and converts a property's string value to its declared type. Names not
 * listed are strings. A value that does not parse as its declared type is treated as absent, so every
 * comparison with it is UNKNOWN rather than wrong.
 */
final class PropertyTypes {

    private PropertyTypes() {
    }

    /** The type letter declared for {@code name} in {@code types}, or 0 when none is. */
    static char typeOf(String types, String name) {
        if (types == null || types.isEmpty()) {
            return 0;
        }
        int from = 0;
        int length = types.length();
        while (from < length) {
            int end = types.indexOf(',', from);
            if (end < 0) {
                end = length;
            }
            int colon = types.lastIndexOf(':', end - 1);
            if (colon >= from && colon == end - 2 && colon - from == name.length() && types.startsWith(name, from)) {
                return types.charAt(colon + 1);
            }
            from = end + 1;
        }
        return 0;
    }

    /** The value as the declared type: String, Boolean, Byte, Short, Integer, Long, Float or Double; or null. */
    static Object convert(char type, String raw) {
        try {
            return switch (type) {
                case 'Z' -> raw.equalsIgnoreCase("true") ? Boolean.TRUE
                        : raw.equalsIgnoreCase("false") ? Boolean.FALSE : null;
                case 'B' -> Byte.valueOf(raw);
                case 'S' -> Short.valueOf(raw);
                case 'I' -> Integer.valueOf(raw);
                case 'J' -> Long.valueOf(raw);
                case 'F' -> Float.valueOf(raw);
                case 'D' -> Double.valueOf(raw);
                default -> raw;
            };
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
