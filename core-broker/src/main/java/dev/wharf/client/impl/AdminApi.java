package dev.wharf.client.impl;

import dev.wharf.client.ClientException;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.BrokerStatus;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.TopicConfigTable;
import dev.wharf.protocol.header.RouteHeaders.CreateTopicRequest;
import dev.wharf.protocol.header.RouteHeaders.TopicRequest;

/** Topic administration requests to a broker. Thread-safe. */
public final class AdminApi {

    private final RemotingCalls calls;

    public AdminApi(RemotingCalls calls) {
        this.calls = calls;
    }

    public void createTopic(String address, CreateTopicRequest header, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.UPDATE_AND_CREATE_TOPIC, header),
                timeoutMillis);
    }

    public void deleteTopic(String address, String topic, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.DELETE_TOPIC_IN_BROKER,
                new TopicRequest(topic)), timeoutMillis);
    }

    /** GET_BROKER_RUNTIME_INFO: the broker's identity and commit-log figures. */
    public BrokerRuntime runtime(String address, long timeoutMillis) throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.GET_BROKER_RUNTIME_INFO, null), timeoutMillis);
        return Json.decode(response.body(), BrokerRuntime.class);
    }

    /** GET_BROKER_STATUS: the broker's version, disk and pending scheduled and half messages. */
    public BrokerStatus status(String address, long timeoutMillis) throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.GET_BROKER_STATUS, null), timeoutMillis);
        return Json.decode(response.body(), BrokerStatus.class);
    }

    public TopicConfigTable topicConfigs(String address, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.GET_ALL_TOPIC_CONFIG, null), timeoutMillis);
        return Json.decode(response.body(), TopicConfigTable.class);
    }
}
