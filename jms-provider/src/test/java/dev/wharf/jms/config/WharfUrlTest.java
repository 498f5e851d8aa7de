package dev.wharf.jms.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Broker URL forms, and every malformed form with the sentence that names its bad part. */
class WharfUrlTest {

    @Test
    void nameServerUrls() {
        WharfUrl u = WharfUrl.parse("wharf://ns1:9876,10.0.0.2:9877 , [::1]:1");
        assertThat(u.scheme()).isEqualTo(WharfUrl.Scheme.WHARF);
        assertThat(u.isVm()).isFalse();
        assertThat(u.addresses()).containsExactly("ns1:9876", "10.0.0.2:9877", "[::1]:1");
        assertThat(u.vmName()).isNull();
        assertThat(u.parameters()).isEmpty();
        assertThat(WharfUrl.parse("WHARF://host").addresses()).containsExactly("host:9876");
        assertThat(WharfUrl.parse("wharf://[fe80::1]").addresses()).containsExactly("[fe80::1]:9876");
    }

    @Test
    void vmUrlsAndParameters() {
        WharfUrl u = WharfUrl.parse("  vm://local-1?flushDiskType=SYNC_FLUSH&storePathRootDir=%2Fdata%2Fa+b%20c&x=  ");
        assertThat(u.isVm()).isTrue();
        assertThat(u.vmName()).isEqualTo("local-1");
        assertThat(u.addresses()).isEmpty();
        assertThat(u.parameters()).containsExactly(Map.entry("flushDiskType", "SYNC_FLUSH"),
                Map.entry("storePathRootDir", "/data/a+b c"), Map.entry("x", ""));
        assertThat(u.text()).startsWith("vm://");
        assertThat(WharfUrl.parse("vm://a?").parameters()).isEmpty();
        assertThat(WharfUrl.parse("vm://a?k=%C3%A9").parameters()).containsEntry("k", "\u00e9");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "``                                  | is empty",
        "`   `                               | is empty",
        "localhost:9876                      | has no scheme",
        "tcp://localhost:61616               | has the scheme \"tcp\"",
        "wharf://                            | names no NameServer",
        "wharf://a:1,,b:2                    | has an empty NameServer address",
        "wharf://a:1,                        | has an empty NameServer address",
        "wharf://host:port                   | has the port \"port\"",
        "wharf://host:0                      | has the port \"0\"",
        "wharf://host:65536                  | has the port \"65536\"",
        "wharf://host:                       | has the port \"\"",
        "wharf://:9876                       | without a host",
        "wharf://ho st:1                     | has the character ' ' in the host",
        "wharf://user@host:1                 | has the character '@' in the host",
        "wharf://::1:9876                    | put IPv6 addresses in brackets",
        "wharf://[::1:9876                   | without a closing ']'",
        "wharf://[::1]9876                   | after the IPv6 address",
        "wharf://[zz]:1                      | malformed IPv6 address",
        "wharf://host:1/path                 | has a path \"/path\"",
        "wharf://host:1#frag                 | has a fragment \"#frag\"",
        "vm://                               | names no broker",
        "vm://a:1                            | has the character ':' in the broker name",
        "vm://a/b                            | has a path \"/b\"",
        "vm://a?x                            | has the parameter \"x\" without a value",
        "vm://a?=1                           | has a parameter without a name",
        "vm://a?x=1&&y=2                     | has an empty parameter",
        "vm://a?x=1&x=2                      | sets the parameter \"x\" twice",
        "vm://a?x=%zz                        | malformed %-escape",
        "vm://a?x=%4                         | malformed %-escape",
    })
    void malformedUrlsAreRefusedWithASentenceNamingTheBadPart(String url, String expected) {
        assertThatThrownBy(() -> WharfUrl.parse(url)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(expected).hasMessageEndingWith(".");
    }

    @Test
    void sentencesSayWhatToWrite() {
        assertThatThrownBy(() -> WharfUrl.parse("tcp://x:1")).hasMessageContaining("wharf://host:port")
                .hasMessageContaining("vm://name");
        assertThatThrownBy(() -> WharfUrl.parse("wharf://h:99999")).hasMessageContaining("from 1 to 65535");
    }

    @Test
    void serializesAsItsText() throws Exception {
        WharfUrl u = WharfUrl.parse("wharf://a:1,b:2?sendTimeout=5");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(u);
        }
        WharfUrl back;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            back = (WharfUrl) in.readObject();
        }
        assertThat(back).isEqualTo(u);
        assertThat(back.addresses()).isEqualTo(List.of("a:1", "b:2"));
        assertThat(back.parameters()).containsEntry("sendTimeout", "5");
    }
}
