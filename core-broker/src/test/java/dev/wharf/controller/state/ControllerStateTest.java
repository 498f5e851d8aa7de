package dev.wharf.controller.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.ControllerHeaders;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControllerStateTest {

    private final ControllerState state = new ControllerState();

    private long register(String address, long id) {
        ApplyResult r = state.apply(new LogCommand.Register("C", "b", id, address, address));
        assertThat(r.isSuccess()).as(r.remark()).isTrue();
        return r.brokerId();
    }

    @Test
    void idsAreAssignedInOrderConfirmedAndRetriedIdempotently() {
        assertThat(register("h:1", 0)).isEqualTo(1);
        assertThat(register("h:2", 0)).isEqualTo(2);
        assertThat(register("h:1", 0)).as("same check code").isEqualTo(1);
        assertThat(register("h:9", 7)).isEqualTo(7);
        assertThat(register("h:3", 0)).isEqualTo(8);
        ApplyResult moved = state.apply(new LogCommand.Register("C", "b", 2, "h:22", "x"));
        assertThat(moved.group().addressOf(2)).isEqualTo("h:22");
        ApplyResult otherCluster = state.apply(new LogCommand.Register("D", "b", 0, "h:5", "y"));
        assertThat(otherCluster.code()).isEqualTo(ResponseCode.CONTROLLER_INVALID_REQUEST);
    }

    @Test
    void electionsAreFencedByTheMasterEpochAndResetTheSet() {
        register("h:1", 0);
        register("h:2", 0);
        ApplyResult first = state.apply(new LogCommand.Elect("b", 0, 1));
        assertThat(first.group().masterEpoch()).isEqualTo(1);
        assertThat(first.group().syncStateSet()).containsExactly(1L);
        ApplyResult late = state.apply(new LogCommand.Elect("b", 0, 2));
        assertThat(late.code()).isEqualTo(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH);
        assertThat(state.group("b").masterBrokerId()).isEqualTo(1);

        ApplyResult grown = state.apply(new LogCommand.AlterSyncStateSet("b", 1, 1, 1, List.of(2L, 1L)));
        assertThat(grown.group().syncStateSet()).containsExactly(1L, 2L);
        assertThat(grown.group().syncStateSetEpoch()).isEqualTo(2);
        assertThat(state.apply(new LogCommand.AlterSyncStateSet("b", 1, 1, 1, List.of(1L))).code())
                .isEqualTo(ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH);
        assertThat(state.apply(new LogCommand.AlterSyncStateSet("b", 2, 1, 2, List.of(2L))).code())
                .isEqualTo(ResponseCode.CONTROLLER_INVALID_MASTER);
        assertThat(state.apply(new LogCommand.AlterSyncStateSet("b", 1, 1, 2, List.of(2L))).code())
                .as("master left out").isEqualTo(ResponseCode.CONTROLLER_INVALID_MASTER);
        assertThat(state.apply(new LogCommand.AlterSyncStateSet("b", 1, 1, 2, List.of(1L, 9L))).code())
                .isEqualTo(ResponseCode.CONTROLLER_INVALID_REPLICAS);

        ApplyResult none = state.apply(new LogCommand.Elect("b", 1, ControllerHeaders.NO_BROKER));
        assertThat(none.group().hasMaster()).isFalse();
        assertThat(none.group().masterEpoch()).isEqualTo(2);
        assertThat(none.group().syncStateSet()).as("kept without a master").containsExactly(1L, 2L);
        ApplyResult second = state.apply(new LogCommand.Elect("b", 2, 2));
        assertThat(second.group().syncStateSet()).containsExactly(2L);
        assertThat(second.group().syncStateSetEpoch()).isEqualTo(3);
    }

    @Test
    void commandsRoundTripAndBadBytesAreRefusedWithAReason() {
        List<LogCommand> commands = List.of(new LogCommand.Register("C", "b", 0, "h:1", null),
                new LogCommand.Elect("b", 3, ControllerHeaders.NO_BROKER),
                new LogCommand.AlterSyncStateSet("b", 1, 2, 3, List.of(1L, 2L, 3L)),
                new LogCommand.MemberAddress("n0", "127.0.0.1:9878"));
        for (LogCommand c : commands) {
            assertThat(CommandLayout.decodeCommand(ByteBuffer.wrap(CommandLayout.encode(c)))).isEqualTo(c);
        }
        byte[] elect = CommandLayout.encode(commands.get(1));
        assertThatThrownBy(() -> CommandLayout.decodeCommand(ByteBuffer.wrap(elect, 0, elect.length - 3)))
                .hasMessageContaining("truncated");
        byte[] badVersion = elect.clone();
        badVersion[CommandLayout.VERSION_OFFSET] = 9;
        assertThatThrownBy(() -> CommandLayout.decodeCommand(ByteBuffer.wrap(badVersion)))
                .hasMessageContaining("unknown controller command version 9");
        byte[] badType = elect.clone();
        badType[CommandLayout.TYPE_OFFSET] = 42;
        assertThatThrownBy(() -> CommandLayout.decodeCommand(ByteBuffer.wrap(badType)))
                .hasMessageContaining("unknown controller command type 42");
        byte[] longer = java.util.Arrays.copyOf(elect, elect.length + 1);
        assertThatThrownBy(() -> CommandLayout.decodeCommand(ByteBuffer.wrap(longer)))
                .hasMessageContaining("after its last field");
    }

    @Test
    void aSnapshotRestoresTheSameState(@TempDir Path dir) throws Exception {
        register("h:1", 0);
        register("h:2", 0);
        state.apply(new LogCommand.Elect("b", 0, 1));
        state.apply(new LogCommand.MemberAddress("n1", "127.0.0.1:1"));
        Path file = dir.resolve("snapshot.1_9");
        state.snapshot(1, 9).writeTo(file);
        ControllerState restored = new ControllerState();
        restored.restore(StateSnapshot.readFrom(file));
        assertThat(restored.groups()).isEqualTo(state.groups());
        assertThat(restored.memberAddresses()).isEqualTo(state.memberAddresses());
        java.nio.file.Files.writeString(file, "{\"version\":2,\"term\":1,\"index\":9,\"groups\":[],\"members\":{}}");
        assertThatThrownBy(() -> StateSnapshot.readFrom(file)).hasMessageContaining("version 2");
    }
}
