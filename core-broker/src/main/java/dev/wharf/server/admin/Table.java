package dev.wharf.server.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows of named columns, rendered as aligned text (headers prefixed with {@code #}, as RocketMQ's admin tool
 * prints them; numbers right-aligned) or handed to JSON as one object per row. Not thread-safe.
 */
final class Table {

    /** A column: its header in text output and its key in JSON output. */
    record Column(String header, String key, boolean numeric) {
    }

    private static final String GAP = "  ";

    private final List<Column> columns;
    private final List<Object[]> rows = new ArrayList<>();

    Table(Column... columns) {
        this.columns = List.of(columns);
    }

    static Column text(String header, String key) {
        return new Column(header, key, false);
    }

    static Column number(String header, String key) {
        return new Column(header, key, true);
    }

    /** Adds a row: one value per column, in column order. */
    void add(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("a row of " + columns.size() + " columns got " + values.length + " values");
        }
        rows.add(values.clone());
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    /** One map per row, column key to value, for JSON. */
    List<Map<String, Object>> rows() {
        List<Map<String, Object>> out = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                map.put(columns.get(i).key(), row[i]);
            }
            out.add(map);
        }
        return out;
    }

    /** Header and rows as aligned text, each line ending with a line separator. */
    String render() {
        int[] widths = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            widths[i] = header(i).length();
        }
        for (Object[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], cell(row[i]).length());
            }
        }
        StringBuilder out = new StringBuilder();
        String[] headers = new String[columns.size()];
        for (int i = 0; i < headers.length; i++) {
            headers[i] = header(i);
        }
        line(out, headers, widths);
        for (Object[] row : rows) {
            String[] cells = new String[row.length];
            for (int i = 0; i < row.length; i++) {
                cells[i] = cell(row[i]);
            }
            line(out, cells, widths);
        }
        return out.toString();
    }

    private String header(int column) {
        return "#" + columns.get(column).header();
    }

    private void line(StringBuilder out, String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            boolean last = i == cells.length - 1;
            String pad = " ".repeat(widths[i] - cells[i].length());
            if (columns.get(i).numeric()) {
                line.append(pad).append(cells[i]);
            } else {
                line.append(cells[i]);
                if (!last) {
                    line.append(pad);
                }
            }
            if (!last) {
                line.append(GAP);
            }
        }
        out.append(line.toString().stripTrailing()).append(System.lineSeparator());
    }

    private static String cell(Object value) {
        return value == null ? "-" : value.toString();
    }
}
