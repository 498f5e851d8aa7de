package dev.wharf.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.jms.config.ConnectionOption;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.json.JsonParserFactory;

/**
 * The typed {@code wharf.*} properties that are connection options: each is in the configuration metadata Boot
 * generates (so IDEs complete and document it), and the default it documents is the option table's.
 */
class ConnectionOptionPropertiesTest {

    private static final Pattern DOCUMENTED_DEFAULT = Pattern.compile("Default:? ([^ ]+?)[.:]?(?: |$)");

    @Test
    void everyTypedOptionPropertyIsInTheMetadataWithTheTablesDefault() throws IOException {
        Map<String, Map<String, Object>> metadata = metadata();
        List<String> checked = new ArrayList<>();
        for (WharfConnectionFactoryFactory.OptionProperty<?> p : WharfConnectionFactoryFactory.OPTION_PROPERTIES) {
            Map<String, Object> entry = metadata.get(p.property());
            assertThat(entry).as(p.property()).isNotNull();
            assertThat((String) entry.get("description")).as(p.property()).isNotBlank();
            ConnectionOption<?> option = p.option();
            Object declared = entry.get("defaultValue");
            Matcher m = DOCUMENTED_DEFAULT.matcher((String) entry.get("description"));
            if (declared == null && m.find()) {
                declared = m.group(1);
            }
            if (declared == null || option.defaultValue() == null) {
                continue;
            }
            Object expected = option.defaultValue();
            Object actual = "java.time.Duration".equals(entry.get("type"))
                    ? DurationStyle.detectAndParse(declared.toString()).toMillis() : declared;
            assertThat(String.valueOf(actual)).as("the default %s documents for option %s", p.property(),
                    option.name()).isEqualTo(String.valueOf(expected));
            checked.add(p.property());
        }
        assertThat(checked).contains("wharf.max-reconsume-times", "wharf.redelivery-delay", "wharf.send-timeout",
                "wharf.tls.verify-hostname");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> metadata() throws IOException {
        String json;
        try (InputStream in = ConnectionOptionPropertiesTest.class.getResourceAsStream(
                "/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("the generated configuration metadata").isNotNull();
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, Map<String, Object>> out = new HashMap<>();
        for (Object p : (List<Object>) JsonParserFactory.getJsonParser().parseMap(json).get("properties")) {
            Map<String, Object> property = (Map<String, Object>) p;
            out.put((String) property.get("name"), property);
        }
        return out;
    }
}
