package dev.wharf.controller.state;

import dev.wharf.protocol.ResponseCode;

/**
 * What applying a {@link LogCommand} did: a response code (SUCCESS or a controller code saying why the state did not
 * change), a remark for people, the broker id a registration holds, and the group as it is after the command.
 */
public record ApplyResult(int code, String remark, long brokerId, GroupRecord group) {

    static ApplyResult ok(GroupRecord group) {
        return new ApplyResult(ResponseCode.SUCCESS, null, -1, group);
    }

    static ApplyResult registered(long brokerId, GroupRecord group) {
        return new ApplyResult(ResponseCode.SUCCESS, null, brokerId, group);
    }

    static ApplyResult refused(int code, String remark, GroupRecord group) {
        return new ApplyResult(code, remark, -1, group);
    }

    public boolean isSuccess() {
        return code == ResponseCode.SUCCESS;
    }
}
