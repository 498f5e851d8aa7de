package dev.wharf.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RemotingCommandTest {

    @Test
    void requestsGetDistinctOpaquesAndResponsesCopyThem() {
        RemotingCommand first = RemotingCommand.createRequest(RequestCode.SEND_MESSAGE);
        RemotingCommand second = RemotingCommand.createRequest(RequestCode.SEND_MESSAGE);
        RemotingCommand response = second.newResponse(ResponseCode.SUCCESS, "ok");

        assertThat(second.opaque()).isNotEqualTo(first.opaque());
        assertThat(response.opaque()).isEqualTo(second.opaque());
        assertThat(response.isResponse()).isTrue();
        assertThat(response.remark()).isEqualTo("ok");
        assertThat(first.isResponse()).isFalse();
        assertThat(first.markOneway().isOneway()).isTrue();
        assertThat(RemotingCommand.createResponse(ResponseCode.SYSTEM_BUSY, null).isResponse()).isTrue();
    }

    @Test
    void typedExtensionFieldsParseTheirValues() throws Exception {
        RemotingCommand request = RemotingCommand.createRequest(RequestCode.PULL_MESSAGE)
                .putExt("queueId", 7).putExt("offset", 1L << 40).putExt("flag", true).putExt("topic", "T");

        assertThat(request.requireExt("topic")).isEqualTo("T");
        assertThat(request.requireExtInt("queueId")).isEqualTo(7);
        assertThat(request.requireExtLong("offset")).isEqualTo(1L << 40);
        assertThat(request.requireExtBoolean("flag")).isTrue();
        assertThat(request.extInt("queueId")).hasValue(7);
        assertThat(request.extLong("missing")).isEmpty();
        assertThat(request.extInt("missing", -1)).isEqualTo(-1);
        assertThat(request.extLong("offset", 0)).isEqualTo(1L << 40);
        assertThat(request.extBoolean("missing", true)).isTrue();
        assertThat(request.ext("missing")).isNull();

        request.putExt("topic", null);
        assertThat(request.extFields()).doesNotContainKey("topic");
    }

    @Test
    void aMissingRequiredFieldIsNamed() {
        RemotingCommand request = RemotingCommand.createRequest(RequestCode.PULL_MESSAGE);

        assertThatThrownBy(() -> request.requireExtLong("queueOffset"))
                .isInstanceOfSatisfying(RemotingCommandException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo(
                            "request PULL_MESSAGE(11) lacks the required header field 'queueOffset'");
                    assertThat(e.field()).isEqualTo("queueOffset");
                    assertThat(e.value()).isNull();
                });
    }

    @Test
    void aMalformedFieldIsNamedWithItsValue() {
        RemotingCommand request = RemotingCommand.createRequest(RequestCode.PULL_MESSAGE)
                .putExt("queueId", "abc").putExt("maxMsgNums", "99999999999").putExt("b", "yes");

        assertThatThrownBy(() -> request.requireExtInt("queueId"))
                .isInstanceOfSatisfying(RemotingCommandException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo(
                            "header field 'queueId' of request PULL_MESSAGE(11) must be an int, but is 'abc'");
                    assertThat(e.field()).isEqualTo("queueId");
                    assertThat(e.value()).isEqualTo("abc");
                });
        assertThatThrownBy(() -> request.extInt("maxMsgNums", 32)).hasMessageContaining("'99999999999'");
        assertThatThrownBy(() -> request.extBoolean("b", false)).hasMessageContaining("true or false");
    }

    @Test
    void bodyBuffersReleaseExactlyOnce() {
        AtomicInteger released = new AtomicInteger();
        RemotingCommand response = RemotingCommand.createResponse(ResponseCode.SUCCESS, null)
                .setBodyBuffers(List.of(ByteBuffer.allocate(3), ByteBuffer.allocate(4)), released::incrementAndGet);

        assertThat(response.bodyLength()).isEqualTo(7);
        assertThat(response.bodyBuffersReleased()).isFalse();
        assertThat(response.releaseBodyBuffers()).isTrue();
        assertThat(response.releaseBodyBuffers()).isFalse();
        assertThat(released).hasValue(1);
        assertThat(response.bodyBuffersReleased()).isTrue();
    }

    @Test
    void aCommandCarriesEitherABodyOrBodyBuffers() {
        RemotingCommand response = RemotingCommand.createResponse(ResponseCode.SUCCESS, null).setBody(new byte[2]);
        response.setBodyBuffers(List.of(ByteBuffer.allocate(1)), null);

        assertThat(response.body()).isNull();
        assertThatThrownBy(() -> response.setBody(new byte[1])).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> response.setBodyBuffers(List.of(), null)).isInstanceOf(IllegalStateException.class);
        assertThat(RemotingCommand.createRequest(1).releaseBodyBuffers()).isFalse();
    }

    @Test
    void codeNamesComeFromTheConstants() {
        assertThat(RequestCode.NAMES.name(RequestCode.CHANGE_MESSAGE_INVISIBLETIME)).isEqualTo("CHANGE_MESSAGE_INVISIBLETIME");
        assertThat(RequestCode.NAMES.describe(11)).isEqualTo("PULL_MESSAGE(11)");
        assertThat(RequestCode.NAMES.name(424242)).isEqualTo("UNKNOWN(424242)");
        assertThat(ResponseCode.NAMES.name(209)).isEqualTo("POLLING_FULL");
        assertThat(ResponseCode.NAMES.isKnown(5)).isFalse();
        assertThat(RemotingCommand.createRequest(10).toString()).contains("request SEND_MESSAGE(10)");
    }
}
