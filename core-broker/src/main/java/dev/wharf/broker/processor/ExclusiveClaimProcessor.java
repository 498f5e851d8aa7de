package dev.wharf.broker.processor;

import dev.wharf.broker.group.ExclusiveClaims;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.ClientHeaders.ExclusiveClaimRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;

/**
 * CLAIM_EXCLUSIVE and RELEASE_EXCLUSIVE: names one client connection at a time may hold (see
 * {@link ExclusiveClaims}); a claim held by another connection is answered EXCLUSIVE_CLAIM_HELD.
 */
public final class ExclusiveClaimProcessor implements RequestProcessor {

    /** Longest name accepted; names are short identifiers, and the table lives in memory. */
    private static final int MAX_KEY_LENGTH = 512;

    private final ExclusiveClaims claims;

    public ExclusiveClaimProcessor(ExclusiveClaims claims) {
        this.claims = claims;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        String key = request.readHeader(ExclusiveClaimRequest.class).key();
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, "The claimed name is "
                    + key.length() + " characters long; give 1 to " + MAX_KEY_LENGTH + ".");
        }
        if (request.code() == RequestCode.RELEASE_EXCLUSIVE) {
            claims.release(key, channel);
            return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        }
        if (claims.claim(key, channel)) {
            return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        }
        RemotingChannel holder = claims.holder(key);
        return ProcessorSupport.answer(request, ResponseCode.EXCLUSIVE_CLAIM_HELD, "\"" + key + "\" is held by the"
                + " connection from " + (holder == null ? "another client" : holder.remoteAddress()) + ".");
    }
}
