package dev.wharf.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The property conversion table of Jakarta Messaging 3.5.4, every cell, and the property name rules of 3.5.1. */
class PropertyConversionTest {

    private static final List<String> TYPES = List.of("boolean", "byte", "short", "int", "long", "float", "double",
            "String");

    /** Rows: written as; columns in {@link #TYPES} order: X = readable. */
    private static final String[] TABLE = {
        "boolean X......X",
        "byte    .XXXX..X",
        "short   ..XXX..X",
        "int     ...XX..X",
        "long    ....X..X",
        "float   .....XXX",
        "double  ......XX",
        "String  XXXXXXXX",
    };

    private static Object sample(String type) {
        return switch (type) {
            case "boolean" -> true;
            case "byte" -> (byte) -7;
            case "short" -> (short) 1234;
            case "int" -> 123_456_789;
            case "long" -> 9_876_543_210L;
            case "float" -> 1.25f;
            case "double" -> 2.5e300;
            default -> "42";
        };
    }

    static Stream<Arguments> cells() {
        List<Arguments> out = new ArrayList<>();
        for (String row : TABLE) {
            String written = row.substring(0, 8).strip();
            String marks = row.substring(8);
            for (int c = 0; c < TYPES.size(); c++) {
                out.add(Arguments.of(written, TYPES.get(c), marks.charAt(c) == 'X'));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} read as {1}: {2}")
    @MethodSource("cells")
    void everyCellOfTheTable(String written, String readAs, boolean allowed) throws JMSException {
        WharfMessage m = new WharfMessage();
        set(m, "p", written, sample(written));
        if (allowed) {
            assertThat(get(m, "p", readAs)).isEqualTo(expected(sample(written), readAs));
        } else {
            assertThatThrownBy(() -> get(m, "p", readAs)).isInstanceOf(MessageFormatException.class)
                    .hasMessageContaining("Property \"p\"").hasMessageContaining("cannot be read as");
        }
        // The object form always returns the value as it was set.
        assertThat(m.getObjectProperty("p")).isEqualTo(sample(written));
    }

    @ParameterizedTest(name = "{0} read as {1}: {2}")
    @MethodSource("cells")
    void theTableHoldsForReceivedMessagesToo(String written, String readAs, boolean allowed) throws JMSException {
        WharfMessage sent = new WharfMessage();
        set(sent, "p", written, sample(written));
        WharfMessage m = Wire.roundTrip(sent);
        assertThat(m.getObjectProperty("p")).isEqualTo(sample(written));
        if (allowed) {
            assertThat(get(m, "p", readAs)).isEqualTo(expected(sample(written), readAs));
        } else {
            assertThatThrownBy(() -> get(m, "p", readAs)).isInstanceOf(MessageFormatException.class);
        }
    }

    private static Object expected(Object v, String readAs) {
        if (v instanceof String s) {
            return switch (readAs) {
                case "boolean" -> Boolean.valueOf(s);
                case "byte" -> Byte.valueOf(s);
                case "short" -> Short.valueOf(s);
                case "int" -> Integer.valueOf(s);
                case "long" -> Long.valueOf(s);
                case "float" -> Float.valueOf(s);
                case "double" -> Double.valueOf(s);
                default -> s;
            };
        }
        if (readAs.equals("String")) {
            return String.valueOf(v);
        }
        if (v instanceof Number n) {
            return switch (readAs) {
                case "short" -> n.shortValue();
                case "int" -> n.intValue();
                case "long" -> n.longValue();
                case "double" -> v instanceof Float f ? (double) f : n.doubleValue();
                default -> v;
            };
        }
        return v;
    }

    static void set(WharfMessage m, String name, String type, Object v) throws JMSException {
        switch (type) {
            case "boolean" -> m.setBooleanProperty(name, (Boolean) v);
            case "byte" -> m.setByteProperty(name, (Byte) v);
            case "short" -> m.setShortProperty(name, (Short) v);
            case "int" -> m.setIntProperty(name, (Integer) v);
            case "long" -> m.setLongProperty(name, (Long) v);
            case "float" -> m.setFloatProperty(name, (Float) v);
            case "double" -> m.setDoubleProperty(name, (Double) v);
            default -> m.setStringProperty(name, (String) v);
        }
    }

    static Object get(WharfMessage m, String name, String type) throws JMSException {
        return switch (type) {
            case "boolean" -> m.getBooleanProperty(name);
            case "byte" -> m.getByteProperty(name);
            case "short" -> m.getShortProperty(name);
            case "int" -> m.getIntProperty(name);
            case "long" -> m.getLongProperty(name);
            case "float" -> m.getFloatProperty(name);
            case "double" -> m.getDoubleProperty(name);
            default -> m.getStringProperty(name);
        };
    }

    @Test
    void stringsConvertWithTheTargetsValueOf() throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setStringProperty("t", "TRUE");
        m.setStringProperty("x", "yes");
        m.setStringProperty("f", "-1.5e3");
        assertThat(m.getBooleanProperty("t")).isTrue();
        assertThat(m.getBooleanProperty("x")).isFalse();
        assertThat(m.getFloatProperty("f")).isEqualTo(-1500f);
        assertThat(m.getDoubleProperty("f")).isEqualTo(-1500d);
    }

    @ParameterizedTest
    @ValueSource(strings = {"byte", "short", "int", "long", "float", "double"})
    void aStringThatDoesNotParseThrowsNumberFormatException(String type) throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setStringProperty("s", "twelve");
        assertThatThrownBy(() -> get(m, "s", type)).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void outOfRangeStringsThrowNumberFormatException() throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setStringProperty("s", "300");
        assertThatThrownBy(() -> m.getByteProperty("s")).isInstanceOf(NumberFormatException.class);
        assertThat(m.getShortProperty("s")).isEqualTo((short) 300);
    }

    @Test
    void absentPropertiesReadAsValueOfNull() throws JMSException {
        WharfMessage m = new WharfMessage();
        assertThat(m.propertyExists("none")).isFalse();
        assertThat(m.getBooleanProperty("none")).isFalse();
        assertThat(m.getStringProperty("none")).isNull();
        assertThat(m.getObjectProperty("none")).isNull();
        for (String type : List.of("byte", "short", "int", "long")) {
            assertThatThrownBy(() -> get(m, "none", type)).as(type).isInstanceOf(NumberFormatException.class);
        }
        // Float.valueOf(null) and Double.valueOf(null) throw NullPointerException.
        assertThatThrownBy(() -> m.getFloatProperty("none")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.getDoubleProperty("none")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aNullStringPropertyExistsAndReadsAsNull() throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setStringProperty("n", null);
        m.setObjectProperty("o", null);
        assertThat(m.propertyExists("n")).isTrue();
        assertThat(m.getStringProperty("n")).isNull();
        assertThat(m.getObjectProperty("o")).isNull();
        assertThatThrownBy(() -> m.getIntProperty("n")).isInstanceOf(NumberFormatException.class);
        assertThat(Collections.list(m.getPropertyNames())).containsExactly("n", "o");
    }

    @Test
    void setObjectPropertyAcceptsWrappersAndStringOnly() throws JMSException {
        WharfMessage m = new WharfMessage();
        Object[] accepted = {true, (byte) 1, (short) 2, 3, 4L, 5f, 6d, "s"};
        for (int i = 0; i < accepted.length; i++) {
            m.setObjectProperty("p" + i, accepted[i]);
            assertThat(m.getObjectProperty("p" + i)).isEqualTo(accepted[i]);
        }
        for (Object refused : new Object[] {'c', new byte[] {1}, new Object(), List.of(), new StringBuilder("x")}) {
            assertThatThrownBy(() -> m.setObjectProperty("q", refused)).isInstanceOf(MessageFormatException.class)
                    .hasMessageContaining(refused.getClass().getName());
        }
        assertThat(m.propertyExists("q")).isFalse();
    }

    @Test
    void propertyNamesMustBeSelectorIdentifiers() {
        WharfMessage m = new WharfMessage();
        for (String bad : new String[] {null, "", "1abc", "a-b", "a b", "a.b", "a#b", "€-", "x\u0001y", "\u0002"}) {
            assertThatThrownBy(() -> m.setStringProperty(bad, "v")).as(String.valueOf(bad))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        for (String keyword : new String[] {"NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN",
            "IS", "ESCAPE", "and", "Null"}) {
            assertThatThrownBy(() -> m.setIntProperty(keyword, 1)).as(keyword)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("selector keyword");
        }
        assertThatThrownBy(() -> m.setStringProperty("JMSType", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("header");
        assertThatThrownBy(() -> m.setStringProperty("JMSFoo", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.setStringProperty("JMSXFoo", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JMSX");
        assertThatThrownBy(() -> m.setStringProperty("JMS_Wharf_BodyType", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Wharf reserves");
        for (String system : new String[] {"KEYS", "TAGS", "DELAY", "UNIQ_KEY", "WAIT", "WHARF_PROPERTY_TYPES",
            "__transactionId__"}) {
            assertThatThrownBy(() -> m.setStringProperty(system, "x")).as(system)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broker itself");
        }
    }

    @Test
    void validNamesIncludeUnicodeDollarUnderscoreAndOtherProvidersPrefixes() throws JMSException {
        WharfMessage m = new WharfMessage();
        for (String good : new String[] {"a", "_x", "$y", "größe", "naïve1", "JMS_Other_Flag", "JMSXGroupID",
            "and_or", "keys", "NULLABLE", "isValid"}) {
            m.setStringProperty(good, "v");
            assertThat(m.getStringProperty(good)).isEqualTo("v");
        }
    }

    @Test
    void jmsxPropertiesHaveTheirSpecifiedTypes() throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setStringProperty("JMSXGroupID", "g");
        m.setIntProperty("JMSXGroupSeq", 3);
        assertThatThrownBy(() -> m.setIntProperty("JMSXGroupID", 1)).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.setStringProperty("JMSXGroupSeq", "3")).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.setLongProperty("JMSXDeliveryCount", 3)).isInstanceOf(MessageFormatException.class);
        assertThat(m.getObjectProperty("JMSXGroupSeq")).isEqualTo(3);
    }

    @Test
    void receivedPropertiesAreReadOnlyUntilCleared() throws JMSException {
        WharfMessage sent = new WharfMessage();
        sent.setStringProperty("a", "1");
        WharfMessage m = Wire.roundTrip(sent);
        assertThat(m.isPropertiesReadOnly()).isTrue();
        assertThatThrownBy(() -> m.setStringProperty("b", "2")).isInstanceOf(MessageNotWriteableException.class)
                .hasMessageContaining("clearProperties");
        assertThatThrownBy(() -> m.setObjectProperty("b", 2)).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> m.setObjectProperty("b", new Object()))
                .isInstanceOf(MessageNotWriteableException.class);
        m.clearProperties();
        assertThat(m.propertyExists("a")).isFalse();
        assertThat(m.propertyExists("JMSXDeliveryCount")).isFalse();
        m.setStringProperty("b", "2");
        assertThat(m.getStringProperty("b")).isEqualTo("2");
    }

    @Test
    void overwritingAPropertyChangesItsType() throws JMSException {
        WharfMessage m = new WharfMessage();
        m.setIntProperty("p", 1);
        m.setStringProperty("p", "x");
        assertThat(m.getObjectProperty("p")).isEqualTo("x");
        assertThat(Collections.list(m.getPropertyNames())).containsExactly("p");
    }
}
