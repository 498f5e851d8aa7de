package dev.wharf.namesrv;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.Unsupported;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.RegisterBrokerBody;
import dev.wharf.protocol.body.RouteData.TopicList;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.header.RouteHeaders.RegisterBrokerRequest;
import dev.wharf.protocol.header.RouteHeaders.RegisterBrokerResponse;
import dev.wharf.protocol.header.RouteHeaders.TopicRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.util.Map;

/** Answers every NameServer request: broker registration and route, cluster and topic lookups. */
final class NameServerProcessor implements RequestProcessor {

    private final RouteInfoManager routes;

    NameServerProcessor(RouteInfoManager routes) {
        this.routes = routes;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.REGISTER_BROKER -> registerBroker(channel, request);
            case RequestCode.UNREGISTER_BROKER -> unregisterBroker(channel, request);
            case RequestCode.GET_ROUTEINFO_BY_TOPIC -> routeOf(request);
            case RequestCode.GET_BROKER_CLUSTER_INFO -> ok(request, Json.encode(routes.clusterInfo()));
            case RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER -> ok(request, Json.encode(new TopicList(routes.topics())));
            case RequestCode.DELETE_TOPIC_IN_NAMESRV -> deleteTopic(request);
            // RocketMQ's tools delete a topic's order setting with the topic; Wharf keeps none, so there is none
            case RequestCode.DELETE_KV_CONFIG -> request.newResponse(ResponseCode.SUCCESS, null);
            case RequestCode.GET_KV_CONFIG -> request.newResponse(ResponseCode.QUERY_NOT_FOUND, "No config item,"
                    + " Namespace: " + request.ext("namespace") + " Key: " + request.ext("key")
                    + " (Wharf's NameServer keeps no key-value settings)");
            default -> request.newResponse(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, RequestCode.NAMES.isKnown(request.code())
                            && !Unsupported.hasHint(request.code())
                    ? "The NameServer does not handle " + RequestCode.NAMES.name(request.code())
                            + "; send it to a broker instead."
                    : Unsupported.remark(request.code()));
        };
    }

    private RemotingCommand registerBroker(RemotingChannel channel, RemotingCommand request) {
        RegisterBrokerRequest header = request.readHeader(RegisterBrokerRequest.class);
        RegisterBrokerBody body = request.body() == null || request.body().length == 0
                ? new RegisterBrokerBody(Map.of(), null)
                : Json.decode(request.body(), RegisterBrokerBody.class);
        RouteInfoManager.Registration r;
        try {
            r = routes.registerBroker(header.clusterName(), header.brokerAddr(), header.brokerName(), header.brokerId(),
                    header.haServerAddr(), header.masterEpoch(), body.topicConfigTable(), body.dataVersion(), channel,
                    System.currentTimeMillis());
        } catch (BrokerTakeoverException e) {
            return request.newResponse(ResponseCode.NO_PERMISSION, e.getMessage());
        }
        RemotingCommand response = request.newResponse(ResponseCode.SUCCESS, null);
        response.writeHeader(new RegisterBrokerResponse(r.haServerAddr(), r.masterAddr()));
        return response;
    }

    private RemotingCommand unregisterBroker(RemotingChannel channel, RemotingCommand request) {
        RegisterBrokerRequest header = request.readHeader(RegisterBrokerRequest.class);
        try {
            routes.unregisterBroker(header.brokerAddr(), channel);
        } catch (BrokerTakeoverException e) {
            return request.newResponse(ResponseCode.NO_PERMISSION, e.getMessage());
        }
        return request.newResponse(ResponseCode.SUCCESS, null);
    }

    private RemotingCommand routeOf(RemotingCommand request) {
        String topic = request.readHeader(TopicRequest.class).topic();
        TopicRouteData route = routes.pickupTopicRouteData(topic);
        if (route == null) {
            return request.newResponse(ResponseCode.TOPIC_NOT_EXIST, "No broker serves topic " + topic
                    + "; create it (admin topic-create) or send to it once with autoCreateTopicEnable=true.");
        }
        return ok(request, Json.encode(route));
    }

    private RemotingCommand deleteTopic(RemotingCommand request) {
        routes.deleteTopic(request.readHeader(TopicRequest.class).topic());
        return request.newResponse(ResponseCode.SUCCESS, null);
    }

    private static RemotingCommand ok(RemotingCommand request, byte[] body) {
        return request.newResponse(ResponseCode.SUCCESS, null).setBody(body);
    }
}
