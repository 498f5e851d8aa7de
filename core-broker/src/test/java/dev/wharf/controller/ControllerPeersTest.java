package dev.wharf.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.controller.client.ControllerInvoker;
import org.junit.jupiter.api.Test;

class ControllerPeersTest {

    @Test
    void peersParseWithEitherSeparatorAndBadOnesSayWhatIsWrong() {
        ControllerPeers p = ControllerPeers.parse(" n0=127.0.0.1:9870; n1=127.0.0.1:9871,n2=host:9872 ");
        assertThat(p.ids()).containsExactly("n0", "n1", "n2");
        assertThat(p.port("n1")).isEqualTo(9871);
        assertThat(p.host("n2")).isEqualTo("host");
        assertThatThrownBy(() -> ControllerPeers.parse("")).hasMessageContaining("controllerPeers is empty");
        assertThatThrownBy(() -> ControllerPeers.parse("127.0.0.1:9870")).hasMessageContaining("is not id=host:port");
        assertThatThrownBy(() -> ControllerPeers.parse("n0=127.0.0.1")).hasMessageContaining("is not host:port");
        assertThatThrownBy(() -> ControllerPeers.parse("n0=h:99999")).hasMessageContaining("not 1-65535");
        assertThatThrownBy(() -> ControllerPeers.parse("n0=h:1,n0=h:2")).hasMessageContaining("listed twice");
        assertThatThrownBy(() -> ControllerPeers.parse("n 0=h:1")).hasMessageContaining("must be 1-64 letters");
    }

    @Test
    void controllerAddressesParse() {
        assertThat(ControllerInvoker.parseAddresses("a:1;b:2, c:3")).containsExactly("a:1", "b:2", "c:3");
        assertThatThrownBy(() -> ControllerInvoker.parseAddresses(" ; ")).hasMessageContaining("controllerAddr is empty");
        assertThatThrownBy(() -> ControllerInvoker.parseAddresses("a:1;b")).hasMessageContaining("'b' is not host:port");
    }
}
