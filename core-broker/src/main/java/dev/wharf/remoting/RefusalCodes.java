package dev.wharf.remoting;

import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;

/**
 * The response codes that refuse a request because of what the client sent or may do (as opposed to answers such as
 * "no new message yet"): the server logs these, since a one-way sender never sees them and others may drop them.
 */
final class RefusalCodes {

    private RefusalCodes() {
    }

    static boolean isRefusal(int requestCode, int code) {
        if (requestCode == RequestCode.GET_ROUTEINFO_BY_TOPIC && code == ResponseCode.TOPIC_NOT_EXIST) {
            // RocketMQ clients ask for routes of topics that do not exist yet (retry topics, auto-creation) by design
            return false;
        }
        return switch (code) {
            case ResponseCode.SYSTEM_ERROR, ResponseCode.REQUEST_CODE_NOT_SUPPORTED, ResponseCode.MESSAGE_ILLEGAL,
                 ResponseCode.VERSION_NOT_SUPPORTED, ResponseCode.NO_PERMISSION, ResponseCode.TOPIC_NOT_EXIST,
                 ResponseCode.SUBSCRIPTION_PARSE_FAILED, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                 ResponseCode.REQUEST_HEADER_INVALID -> true;
            default -> false;
        };
    }
}
