package dev.wharf.broker.processor;

import dev.wharf.common.message.HostAddress;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandException;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.HeaderException;
import java.util.Map;

/** Small helpers shared by the processors: typed headers in and out, bodies, error answers. */
final class ProcessorSupport {

    private ProcessorSupport() {
    }

    /**
     * Decodes the request's typed header.
     *
     * @throws RemotingCommandException naming the missing or malformed field (answered as REQUEST_HEADER_INVALID)
     */
    static <T extends Record> T header(RemotingCommand request, Class<T> type) throws RemotingCommandException {
        try {
            return HeaderCodec.decode(request.extFields(), type);
        } catch (HeaderException e) {
            throw new RemotingCommandException(e.getMessage());
        }
    }

    /**
     * Decodes the request's JSON body.
     *
     * @throws RemotingCommandException saying what body was expected (answered as REQUEST_HEADER_INVALID)
     */
    static <T> T body(RemotingCommand request, Class<T> type) throws RemotingCommandException {
        try {
            return Json.decode(request.body(), type);
        } catch (IllegalArgumentException e) {
            throw new RemotingCommandException(e.getMessage());
        }
    }

    /** Copies a typed header into the command's extension fields. */
    static RemotingCommand writeHeader(RemotingCommand command, Record header) {
        for (Map.Entry<String, String> e : HeaderCodec.encode(header).entrySet()) {
            command.putExt(e.getKey(), e.getValue());
        }
        return command;
    }

    static RemotingCommand answer(RemotingCommand request, int code, String remark) {
        return request.newResponse(code, remark);
    }

    /**
     * Packs a peer's "ip:port" (as {@code RemotingChannel} formats it) into the record's host field without a
     * name lookup; anything but an IPv4 literal is recorded as 0.0.0.0 with its port.
     */
    static long packHost(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            return 0L;
        }
        int port;
        try {
            port = Integer.parseInt(address, colon + 1, address.length(), 10);
        } catch (NumberFormatException e) {
            return 0L;
        }
        byte[] ip = new byte[4];
        int part = 0;
        int value = 0;
        int digits = 0;
        for (int i = 0; i < colon; i++) {
            char c = address.charAt(i);
            if (c >= '0' && c <= '9' && digits < 3) {
                value = value * 10 + (c - '0');
                digits++;
            } else if (c == '.' && digits > 0 && part < 3 && value <= 255) {
                ip[part++] = (byte) value;
                value = 0;
                digits = 0;
            } else {
                return port & 0xFFFFFFFFL;
            }
        }
        if (part != 3 || digits == 0 || value > 255) {
            return port & 0xFFFFFFFFL;
        }
        ip[3] = (byte) value;
        return HostAddress.pack(ip, port);
    }
}
