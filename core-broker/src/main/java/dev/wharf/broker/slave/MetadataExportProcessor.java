package dev.wharf.broker.slave;

import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.offset.ConsumerOffsetManager;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandException;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.HeaderException;
import dev.wharf.protocol.header.SyncHeaders;
import dev.wharf.protocol.header.SyncHeaders.ProgressDocumentRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Serves what a slave copies from its master: GET_ALL_CONSUMER_OFFSET (the live offset table),
 * GET_ALL_SUBSCRIPTIONGROUP_CONFIG (every group's settings), and GET_ALL_DELAY_OFFSET / GET_PROGRESS_DOCUMENT (the
 * persisted progress documents, as last written: delay/timer progress, acknowledgement state, transaction check
 * progress). Topic configurations come from GET_ALL_TOPIC_CONFIG. Read-only; thread-safe.
 */
public final class MetadataExportProcessor implements RequestProcessor {

    /** The documents a slave may ask for; nothing else under config/ is served. */
    public static final Set<String> PROGRESS_DOCUMENTS = Set.of(SyncHeaders.DELAY_OFFSET, SyncHeaders.ACK_STATE,
            SyncHeaders.TRANSACTION_CHECK_PROGRESS);

    private final ConsumerOffsetManager offsets;
    private final SubscriptionGroupManager groups;
    private final Path storeRoot;

    public MetadataExportProcessor(ConsumerOffsetManager offsets, SubscriptionGroupManager groups, Path storeRoot) {
        this.offsets = offsets;
        this.groups = groups;
        this.storeRoot = storeRoot;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        return switch (request.code()) {
            case RequestCode.GET_ALL_CONSUMER_OFFSET -> ok(request,
                    Json.encode(new ConsumerOffsetManager.OffsetsDocument(offsets.snapshot())));
            case RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG -> ok(request,
                    Json.encode(new SubscriptionGroupManager.GroupsDocument(groups.all())));
            case RequestCode.GET_ALL_DELAY_OFFSET -> document(request, SyncHeaders.DELAY_OFFSET);
            case RequestCode.GET_PROGRESS_DOCUMENT -> document(request, documentName(request));
            default -> request.newResponse(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, "Not a metadata request: "
                    + RequestCode.NAMES.describe(request.code()));
        };
    }

    private static String documentName(RemotingCommand request) throws RemotingCommandException {
        ProgressDocumentRequest header;
        try {
            header = HeaderCodec.decode(request.extFields(), ProgressDocumentRequest.class);
        } catch (HeaderException e) {
            throw new RemotingCommandException(e.getMessage(), "name", null);
        }
        if (!PROGRESS_DOCUMENTS.contains(header.name())) {
            throw new RemotingCommandException("name is \"" + header.name() + "\"; ask for one of "
                    + new java.util.TreeSet<>(PROGRESS_DOCUMENTS) + ".", "name", header.name());
        }
        return header.name();
    }

    private RemotingCommand document(RemotingCommand request, String name) throws java.io.IOException {
        @SuppressWarnings("rawtypes")
        Map doc = JsonConfigFile.inConfigDir(storeRoot, name, Map.class).load();
        if (doc == null) {
            return request.newResponse(ResponseCode.QUERY_NOT_FOUND, "This broker has not written " + name
                    + " yet.");
        }
        return ok(request, Json.encode(doc));
    }

    private static RemotingCommand ok(RemotingCommand request, byte[] body) {
        return request.newResponse(ResponseCode.SUCCESS, null).setBody(body);
    }
}
