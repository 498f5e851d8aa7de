package dev.wharf.common.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Reads a {@code key=value} configuration file in the properties format ({@code #} and {@code !} comments,
 * {@code \} escapes, lines continued by a trailing {@code \}, UTF-8) and refuses a key given twice, naming
 * both lines: {@link Properties#load} would silently keep the last value, so an operator who adds a setting at
 * the end of a long file without seeing the old one gets a value they did not expect.
 *
 * <p>The file is cut into logical lines here (so each key knows the line it starts on); the key and value of
 * each logical line are then parsed by {@link Properties} itself, so escapes and separators mean exactly what
 * they mean in any other properties file.
 */
public final class ConfigFileReader {

    private ConfigFileReader() {
    }

    /**
     * The file's settings in file order.
     *
     * @param what what the file is, for messages ("the broker configuration file")
     * @throws NoSuchFileException      the file does not exist (the message names it)
     * @throws IOException              the file cannot be read or is not UTF-8
     * @throws IllegalArgumentException a key appears twice; the message names the key, both lines and the file
     */
    public static Map<String, String> read(Path file, String what) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, what + " " + file
                    + " does not exist; give the path of an existing key=value file");
        } catch (CharacterCodingException e) {
            throw new IOException(capitalized(what) + " " + file + " is not UTF-8 text; save it as UTF-8.", e);
        }
        return parse(text, what + " " + file);
    }

    /**
     * The settings of properties text in order.
     *
     * @param source where the text came from, named in the message of a duplicate key
     * @throws IllegalArgumentException a key appears twice
     */
    public static Map<String, String> parse(String text, String source) {
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, Integer> lineOfKey = new HashMap<>();
        BufferedReader lines = new BufferedReader(new StringReader(text));
        StringBuilder logical = new StringBuilder();
        int lineNumber = 0;
        int logicalStart = 0;
        try {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                lineNumber++;
                if (logical.isEmpty()) {
                    if (isBlankOrComment(line)) {
                        continue;
                    }
                    logicalStart = lineNumber;
                } else {
                    logical.append('\n');
                }
                logical.append(line);
                if (!continues(line)) {
                    add(logical.toString(), logicalStart, settings, lineOfKey, source);
                    logical.setLength(0);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("reading a string cannot fail", e);
        }
        if (!logical.isEmpty()) {
            add(logical.toString(), logicalStart, settings, lineOfKey, source);
        }
        return settings;
    }

    private static void add(String logicalLine, int line, Map<String, String> settings,
                            Map<String, Integer> lineOfKey, String source) {
        Properties one = new Properties();
        try {
            one.load(new StringReader(logicalLine));
        } catch (IOException e) {
            throw new IllegalStateException("reading a string cannot fail", e);
        } catch (IllegalArgumentException e) {
            // Properties names the bad escape (e.g. "Malformed \\uxxxx encoding.") but not where it is.
            throw new IllegalArgumentException("Line " + line + " of " + source + " is malformed: " + e.getMessage()
                    + " Write a backslash as \\\\.", e);
        }
        for (String key : one.stringPropertyNames()) {
            Integer first = lineOfKey.putIfAbsent(key, line);
            if (first != null) {
                throw new IllegalArgumentException("The key " + key + " appears twice in " + source + ": on line "
                        + first + " and on line " + line + ". Keep the one you mean and delete the other.");
            }
            settings.put(key, one.getProperty(key));
        }
    }

    /** A natural line that holds nothing, or whose first non-blank character starts a comment. */
    private static boolean isBlankOrComment(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c != ' ' && c != '\t' && c != '\f') {
                return c == '#' || c == '!';
            }
        }
        return true;
    }

    /** Whether the line ends with an odd number of backslashes, which continues it on the next line. */
    private static boolean continues(String line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
