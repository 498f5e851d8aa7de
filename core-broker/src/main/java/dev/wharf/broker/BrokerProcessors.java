package dev.wharf.broker;

import dev.wharf.broker.ack.AckService;
import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.longpolling.PullRequestHoldService;
import dev.wharf.broker.processor.AckAdminProcessor;
import dev.wharf.broker.processor.AckMessageProcessor;
import dev.wharf.broker.processor.ClientConfigCheckProcessor;
import dev.wharf.broker.processor.ClientManageProcessor;
import dev.wharf.broker.processor.ConsumerAdminProcessor;
import dev.wharf.broker.processor.ConsumerOffsetProcessor;
import dev.wharf.broker.processor.PeekMessageProcessor;
import dev.wharf.broker.processor.PopMessageProcessor;
import dev.wharf.broker.processor.PullMessageProcessor;
import dev.wharf.broker.processor.PutMessageHook;
import dev.wharf.broker.processor.QueryMessageProcessor;
import dev.wharf.broker.processor.ExclusiveClaimProcessor;
import dev.wharf.broker.processor.GroupAdminProcessor;
import dev.wharf.broker.processor.QueueLockProcessor;
import dev.wharf.broker.processor.ReadSuggestion;
import dev.wharf.broker.slave.MasterOnlyProcessor;
import dev.wharf.broker.slave.SlaveAckStatsProcessor;
import dev.wharf.broker.processor.SendMessageBackProcessor;
import dev.wharf.broker.processor.SendMessageProcessor;
import dev.wharf.broker.processor.TopicAdminProcessor;
import dev.wharf.protocol.RequestCode;
import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageStore;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.LongSupplier;

/** Which processor serves which request codes, on which executor. */
final class BrokerProcessors {

    private BrokerProcessors() {
    }

    static void registerAll(NettyRemotingServer server, BrokerExecutors executors, BrokerConfig config,
                            MessageStore store, BrokerParts parts, PullRequestHoldService holdService,
                            List<PutMessageHook> hooks, LongSupplier storeHost, LongSupplier clock, AckService ack,
                            ReadSuggestion reads) {
        String brokerName = config.getBrokerName();
        if (config.executors().isSendMessageOnIoThread()) {
            // a single send appends (microseconds) and answers from the store's future: it does not block the I/O
            // thread; what may (batches, a new topic) the processor hands to the send executor
            SendMessageProcessor sends = new SendMessageProcessor(brokerName, store, parts.topics, hooks, storeHost,
                    executors.send);
            server.registerProcessorOnIoThread(RequestCode.SEND_MESSAGE, sends);
            server.registerProcessorOnIoThread(RequestCode.SEND_MESSAGE_V2, sends);
            register(server, executors.send, new SendMessageProcessor(brokerName, store, parts.topics, hooks,
                    storeHost), RequestCode.SEND_BATCH_MESSAGE);
        } else {
            register(server, executors.send, new SendMessageProcessor(brokerName, store, parts.topics, hooks,
                    storeHost), RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE);
        }
        register(server, executors.send, new SendMessageBackProcessor(brokerName, store, parts.topics,
                        parts.subscriptionGroups, hooks, storeHost, clock),
                RequestCode.CONSUMER_SEND_MSG_BACK);
        register(server, executors.pull, new PullMessageProcessor(config, store, parts.topics, parts.consumers,
                        parts.subscriptionGroups, parts.offsets, parts.pullTracker, parts.subscriptionCache,
                        holdService, executors.pull, clock, reads),
                RequestCode.PULL_MESSAGE, RequestCode.LITE_PULL_MESSAGE);
        register(server, executors.query, new QueryMessageProcessor(store, brokerName),
                RequestCode.QUERY_MESSAGE, RequestCode.VIEW_MESSAGE_BY_ID);
        register(server, executors.clientManage, new ClientManageProcessor(parts.consumers, parts.producers,
                        parts.subscriptionGroups, parts.topics, clock),
                RequestCode.HEART_BEAT, RequestCode.UNREGISTER_CLIENT, RequestCode.GET_CONSUMER_LIST_BY_GROUP);
        register(server, executors.clientManage, new ClientConfigCheckProcessor(),
                RequestCode.CHECK_CLIENT_CONFIG);
        register(server, executors.clientManage, new QueueLockProcessor(parts.locks, brokerName),
                RequestCode.LOCK_BATCH_MQ, RequestCode.UNLOCK_BATCH_MQ);
        register(server, executors.clientManage, new ExclusiveClaimProcessor(parts.claims),
                RequestCode.CLAIM_EXCLUSIVE, RequestCode.RELEASE_EXCLUSIVE);
        register(server, executors.clientManage, new ConsumerOffsetProcessor(parts.offsets, store),
                RequestCode.QUERY_CONSUMER_OFFSET, RequestCode.UPDATE_CONSUMER_OFFSET, RequestCode.GET_MAX_OFFSET,
                RequestCode.GET_MIN_OFFSET, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP,
                RequestCode.GET_EARLIEST_MSG_STORETIME);
        register(server, executors.admin, new TopicAdminProcessor(parts.topics, store, brokerName),
                RequestCode.UPDATE_AND_CREATE_TOPIC, RequestCode.DELETE_TOPIC_IN_BROKER,
                RequestCode.GET_ALL_TOPIC_CONFIG, RequestCode.GET_TOPIC_STATS_INFO, RequestCode.GET_TOPIC_CONFIG);
        register(server, executors.admin, new GroupAdminProcessor(parts.subscriptionGroups, parts.consumers,
                        parts.offsets, brokerName),
                RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, RequestCode.GET_CONSUMER_CONNECTION_LIST,
                RequestCode.QUERY_TOPIC_CONSUME_BY_WHO);
        register(server, executors.admin, new ConsumerAdminProcessor(parts.topics, parts.offsets, parts.consumers,
                        parts.subscriptionGroups, parts.pullTracker, parts.notifier, store, brokerName, clock),
                RequestCode.GET_CONSUME_STATS, RequestCode.INVOKE_BROKER_TO_RESET_OFFSET);
        if (config.isSlave()) {
            // the acknowledgement state changes with every pop and ack: writes, which only a master takes
            register(server, executors.admin, new MasterOnlyProcessor(brokerName, config.getBrokerId()),
                    RequestCode.POP_MESSAGE, RequestCode.PEEK_MESSAGE, RequestCode.ACK_MESSAGE,
                    RequestCode.CHANGE_MESSAGE_INVISIBLETIME, RequestCode.CREATE_ACK_GROUP,
                    RequestCode.DELETE_ACK_GROUP, RequestCode.LIST_ACK_GROUPS);
            register(server, executors.admin, new SlaveAckStatsProcessor(store.config().rootPath(), store),
                    RequestCode.GET_ACK_STATS);
        } else {
            registerAck(server, executors, brokerName, store, parts, holdService, clock, ack);
        }
    }

    private static void registerAck(NettyRemotingServer server, BrokerExecutors executors, String brokerName,
                                    MessageStore store, BrokerParts parts, PullRequestHoldService holdService,
                                    LongSupplier clock, AckService ack) {
        register(server, executors.pop, new PopMessageProcessor(brokerName, parts.topics, parts.subscriptionGroups, ack,
                holdService, executors.pop, clock), RequestCode.POP_MESSAGE);
        register(server, executors.pop, new PeekMessageProcessor(brokerName, parts.topics, parts.subscriptionGroups,
                ack), RequestCode.PEEK_MESSAGE);
        register(server, executors.ack, new AckMessageProcessor(brokerName, parts.topics, parts.subscriptionGroups, ack,
                store), RequestCode.ACK_MESSAGE, RequestCode.CHANGE_MESSAGE_INVISIBLETIME);
        register(server, executors.admin, new AckAdminProcessor(brokerName, parts.topics, parts.subscriptionGroups,
                ack), RequestCode.CREATE_ACK_GROUP, RequestCode.DELETE_ACK_GROUP, RequestCode.GET_ACK_STATS,
                RequestCode.LIST_ACK_GROUPS);
    }

    private static void register(NettyRemotingServer server, ExecutorService executor, RequestProcessor processor,
                                 int... codes) {
        for (int code : codes) {
            server.registerProcessor(code, processor, executor);
        }
    }
}
