package dev.wharf.protocol;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonEncoding;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads and writes the JSON command header with Jackson's streaming API: no object mapping, no tree,
 * unknown properties skipped. Reading keeps going after a bad property so that the opaque, which may come
 * later, is still learned and the sender can get an error response instead of a closed connection.
 */
final class JsonHeaderCodec {

    private static final JsonFactory JSON = new JsonFactory();
    private static final int MAX_SHOWN = 64;

    private JsonHeaderCodec() {
    }

    static byte[] write(RemotingCommand command) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(160);
        try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeNumberProperty("code", command.code());
            g.writeStringProperty("language", command.language());
            g.writeNumberProperty("version", command.version());
            g.writeNumberProperty("opaque", command.opaque());
            g.writeNumberProperty("flag", command.flag());
            if (command.remark() != null) {
                g.writeStringProperty("remark", command.remark());
            }
            Map<String, String> ext = command.extFieldsOrNull();
            if (ext != null) {
                g.writeName("extFields");
                g.writeStartObject();
                for (Map.Entry<String, String> e : ext.entrySet()) {
                    g.writeStringProperty(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        return out.toByteArray();
    }

    static RemotingCommand read(byte[] bytes, int offset, int length) throws RemotingFrameException {
        RemotingCommand command = new RemotingCommand();
        boolean hasCode = false;
        boolean hasOpaque = false;
        boolean hasFlag = false;
        String error = null;
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), bytes, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new RemotingFrameException("header is not a JSON object");
            }
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                String problem = null;
                switch (name) {
                    case "code" -> {
                        problem = expectInt(p, value, name);
                        if (problem == null) {
                            command.setCode(p.getIntValue());
                            hasCode = true;
                        }
                    }
                    case "opaque" -> {
                        problem = expectInt(p, value, name);
                        if (problem == null) {
                            command.setOpaque(p.getIntValue());
                            hasOpaque = true;
                        }
                    }
                    case "flag" -> {
                        problem = expectInt(p, value, name);
                        if (problem == null) {
                            command.setFlag(p.getIntValue());
                            hasFlag = true;
                        }
                    }
                    case "version" -> {
                        problem = expectInt(p, value, name);
                        if (problem == null) {
                            command.setVersion(p.getIntValue());
                        }
                    }
                    case "language" -> {
                        problem = expectStringOrNull(p, value, name);
                        if (problem == null && value == JsonToken.VALUE_STRING) {
                            command.setLanguage(p.getString());
                        }
                    }
                    case "remark" -> {
                        problem = expectStringOrNull(p, value, name);
                        if (problem == null) {
                            command.setRemark(value == JsonToken.VALUE_NULL ? null : p.getString());
                        }
                    }
                    case "extFields" -> problem = readExtFields(p, value, command);
                    default -> p.skipChildren();
                }
                if (error == null) {
                    error = problem;
                }
            }
            if (p.nextToken() != null) {
                error = error != null ? error : "unexpected content after the header's JSON object";
            }
        } catch (JacksonException e) {
            String reason = "header JSON does not parse: " + oneLine(e.getOriginalMessage());
            if (hasOpaque && hasFlag) {
                throw new RemotingFrameException(reason, command.opaque(), command.flag());
            }
            throw new RemotingFrameException(reason);
        }
        if (error == null && !hasCode) {
            error = "header has no 'code' property";
        }
        if (error != null) {
            if (hasOpaque) {
                throw new RemotingFrameException(error, command.opaque(), command.flag());
            }
            throw new RemotingFrameException(error);
        }
        return command;
    }

    private static String readExtFields(JsonParser p, JsonToken token, RemotingCommand command) {
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token != JsonToken.START_OBJECT) {
            return "header property 'extFields' must be an object of strings, but is " + describe(p, token);
        }
        Map<String, String> fields = new HashMap<>();
        String problem = null;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (value == JsonToken.VALUE_NULL) {
                continue;
            }
            if (value.isScalarValue()) {
                // RocketMQ sends strings only; numbers and booleans are taken by their text, leniently.
                fields.put(name, p.getString());
            } else if (problem == null) {
                problem = "extFields value '" + name + "' must be a string, but is " + describe(p, value);
                p.skipChildren();
            } else {
                p.skipChildren();
            }
        }
        command.adoptExtFields(fields);
        return problem;
    }

    private static String expectInt(JsonParser p, JsonToken token, String name) {
        if (token == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
            return null;
        }
        return "header property '" + name + "' must be a 32-bit integer, but is " + describe(p, token);
    }

    private static String expectStringOrNull(JsonParser p, JsonToken token, String name) {
        if (token == JsonToken.VALUE_STRING || token == JsonToken.VALUE_NULL) {
            return null;
        }
        return "header property '" + name + "' must be a string, but is " + describe(p, token);
    }

    /** Describes a bad value and, for objects and arrays, skips over it. */
    private static String describe(JsonParser p, JsonToken token) {
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            p.skipChildren();
            return token == JsonToken.START_OBJECT ? "an object" : "an array";
        }
        String text = p.getString();
        return text == null ? String.valueOf(token) : "'" + shorten(text) + "'";
    }

    private static String oneLine(String message) {
        if (message == null) {
            return "(no detail)";
        }
        String line = message.replaceAll("\\s+", " ");
        return line.length() > 3 * MAX_SHOWN ? line.substring(0, 3 * MAX_SHOWN) + "..." : line;
    }

    private static String shorten(String text) {
        return text.length() > MAX_SHOWN ? text.substring(0, MAX_SHOWN) + "..." : text;
    }
}
