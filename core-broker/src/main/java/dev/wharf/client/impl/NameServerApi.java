package dev.wharf.client.impl;

import dev.wharf.client.ClientException;
import dev.wharf.client.route.NameServerAddresses;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.protocol.body.RouteData.TopicList;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.header.RouteHeaders.TopicRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * NameServer requests with failover: each call goes to the NameServer that answered last, and on a transport
 * failure to the next one, so one dead NameServer never stops the client while another is alive. NameServers
 * do not talk to each other, so a topic unknown to one is also asked of the others. Thread-safe.
 */
public final class NameServerApi {

    private final RemotingCalls calls;
    private final NameServerAddresses addresses;
    private final long timeoutMillis;

    public NameServerApi(RemotingCalls calls, NameServerAddresses addresses, long timeoutMillis) {
        this.calls = calls;
        this.addresses = addresses;
        this.timeoutMillis = timeoutMillis;
    }

    public NameServerAddresses addresses() {
        return addresses;
    }

    /**
     * The topic's route, or null when every NameServer that answered says it does not know the topic.
     *
     * @throws ClientException when no NameServer answered
     */
    public TopicRouteData route(String topic) throws ClientException, InterruptedException {
        List<String> failures = new ArrayList<>();
        boolean anyAnswered = false;
        ClientException refused = null;
        for (String address : addresses.inTryOrder()) {
            RemotingCommand response;
            try {
                response = calls.invoke(address, RemotingCalls.request(RequestCode.GET_ROUTEINFO_BY_TOPIC,
                        new TopicRequest(topic)), timeoutMillis);
            } catch (ClientException e) {
                failures.add(e.getMessage());
                continue;
            }
            if (response.code() == ResponseCode.AUTHENTICATION_FAILED || response.code() == ResponseCode.NO_PERMISSION) {
                // a refusal of the credentials is not "no such topic": the caller must learn why
                refused = RemotingCalls.refused(address, RequestCode.GET_ROUTEINFO_BY_TOPIC, response);
                continue;
            }
            anyAnswered = true;
            if (response.code() == ResponseCode.SUCCESS && response.body() != null && response.body().length > 0) {
                addresses.markAnswered(address);
                return Json.decode(response.body(), TopicRouteData.class);
            }
            if (response.code() != ResponseCode.TOPIC_NOT_EXIST && response.code() != ResponseCode.SUCCESS) {
                failures.add(RemotingCalls.refused(address, RequestCode.GET_ROUTEINFO_BY_TOPIC, response).getMessage());
            }
        }
        if (anyAnswered) {
            return null;
        }
        if (refused != null) {
            throw refused;
        }
        throw noneAnswered("the route of topic " + topic, failures);
    }

    public ClusterInfo clusterInfo() throws ClientException, InterruptedException {
        RemotingCommand response = callAny("the cluster information",
                () -> RemotingCalls.request(RequestCode.GET_BROKER_CLUSTER_INFO, null));
        return Json.decode(response.body(), ClusterInfo.class);
    }

    /** Every topic any NameServer knows (they may differ briefly, so all answers are merged). */
    public Set<String> topics() throws ClientException, InterruptedException {
        Set<String> out = new TreeSet<>();
        List<String> failures = new ArrayList<>();
        boolean anyAnswered = false;
        for (String address : addresses.inTryOrder()) {
            try {
                RemotingCommand response = calls.invokeExpectSuccess(address,
                        RemotingCalls.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, null), timeoutMillis);
                TopicList list = Json.decode(response.body(), TopicList.class);
                if (list.topicList() != null) {
                    out.addAll(list.topicList());
                }
                anyAnswered = true;
            } catch (ClientException e) {
                failures.add(e.getMessage());
            }
        }
        if (!anyAnswered) {
            throw noneAnswered("the topic list", failures);
        }
        return out;
    }

    /** Removes the topic from every NameServer; fails only if none of them could be told. */
    public void deleteTopic(String topic) throws ClientException, InterruptedException {
        List<String> failures = new ArrayList<>();
        int done = 0;
        for (String address : addresses.all()) {
            try {
                calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.DELETE_TOPIC_IN_NAMESRV,
                        new TopicRequest(topic)), timeoutMillis);
                done++;
            } catch (ClientException e) {
                failures.add(e.getMessage());
            }
        }
        if (done == 0) {
            throw noneAnswered("deleting topic " + topic, failures);
        }
    }

    private RemotingCommand callAny(String what, Supplier<RemotingCommand> request)
            throws ClientException, InterruptedException {
        List<String> failures = new ArrayList<>();
        for (String address : addresses.inTryOrder()) {
            RemotingCommand req = request.get();
            RemotingCommand response;
            try {
                response = calls.invoke(address, req, timeoutMillis);
            } catch (ClientException e) {
                failures.add(e.getMessage());
                continue;
            }
            if (response.code() != ResponseCode.SUCCESS) {
                throw RemotingCalls.refused(address, req.code(), response);
            }
            addresses.markAnswered(address);
            return response;
        }
        throw noneAnswered(what, failures);
    }

    private ClientException noneAnswered(String what, List<String> failures) {
        return new ClientException("No NameServer of " + addresses + " answered when asked for " + what
                + ": " + String.join("; ", failures) + ". Are the NameServers running and ClientConfig.namesrvAddr right?");
    }
}
