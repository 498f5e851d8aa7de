package dev.wharf.server.admin;

import java.io.PrintWriter;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Where an admin command writes its result: aligned text, or JSON with {@code --json}. */
final class Output {

    private static final JsonMapper JSON = JsonMapper.builder().disable(SerializationFeature.INDENT_OUTPUT).build();

    private final PrintWriter out;
    private final boolean json;

    Output(PrintWriter out, boolean json) {
        this.out = out;
        this.json = json;
    }

    boolean json() {
        return json;
    }

    /** A table: aligned text, or a JSON array of row objects. */
    void table(Table table) {
        if (json) {
            println(toJson(table.rows()));
        } else {
            out.print(table.render());
            out.flush();
        }
    }

    /** A result: the sentence as text, or the fields as one JSON object. */
    void result(String text, Map<String, ?> fields) {
        println(json ? toJson(fields) : text);
    }

    /** A line of text output; nothing in JSON mode. */
    void text(String line) {
        if (!json) {
            println(line);
        }
    }

    /** One JSON value on a line of its own (streamed results); nothing in text mode. */
    void jsonLine(Object value) {
        if (json) {
            println(toJson(value));
        }
    }

    void println(String line) {
        out.println(line);
        out.flush();
    }

    static String toJson(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot write the result as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
