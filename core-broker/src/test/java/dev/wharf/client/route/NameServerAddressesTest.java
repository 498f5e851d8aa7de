package dev.wharf.client.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NameServerAddressesTest {

    @Test
    void parsesSeveralAddressesAndTriesTheLastThatAnsweredFirst() {
        NameServerAddresses a = NameServerAddresses.parse(" 127.0.0.1:9876; 127.0.0.1:9877 ,127.0.0.1:9876;");
        assertThat(a.all()).containsExactly("127.0.0.1:9876", "127.0.0.1:9877");
        assertThat(a.inTryOrder()).containsExactly("127.0.0.1:9876", "127.0.0.1:9877");
        a.markAnswered("127.0.0.1:9877");
        assertThat(a.inTryOrder()).containsExactly("127.0.0.1:9877", "127.0.0.1:9876");
    }

    @Test
    void badAddressesAreNamed() {
        assertThatThrownBy(() -> NameServerAddresses.parse(null))
                .hasMessageContaining("No NameServer address is configured");
        assertThatThrownBy(() -> NameServerAddresses.parse(" ; "))
                .hasMessageContaining("lists no address");
        assertThatThrownBy(() -> NameServerAddresses.parse("127.0.0.1:9876;localhost"))
                .hasMessageContaining("\"localhost\"").hasMessageContaining("host:port");
        assertThatThrownBy(() -> NameServerAddresses.parse("h:70000"))
                .hasMessageContaining("1..65535");
    }
}
