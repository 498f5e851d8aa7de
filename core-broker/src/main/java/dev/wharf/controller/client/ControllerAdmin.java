package dev.wharf.controller.client;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.protocol.body.ControllerData.BrokerGroups;
import dev.wharf.protocol.body.ControllerData.ControllerMetadata;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.ControllerHeaders.ElectMasterRequest;
import dev.wharf.protocol.header.ControllerHeaders.ReplicaInfoRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import java.util.List;
import java.util.function.UnaryOperator;

/** The administration requests to a controller cluster: status of each node, broker groups, a designated election. */
public final class ControllerAdmin implements AutoCloseable {

    private final NettyRemotingClient remoting;
    private final ControllerInvoker invoker;

    /**
     * @throws IllegalArgumentException the addresses are malformed
     */
    public ControllerAdmin(String controllerAddr, long timeoutMillis) {
        this(controllerAddr, timeoutMillis, UnaryOperator.identity());
    }

    /**
     * @param setup applied to the remoting client before it starts: credentials that sign every request (a
     *              controller inside a NameServer with aclEnable refuses unsigned ones) and TLS
     * @throws IllegalArgumentException the addresses are malformed
     */
    public ControllerAdmin(String controllerAddr, long timeoutMillis, UnaryOperator<NettyRemotingClient> setup) {
        List<String> addresses = ControllerInvoker.parseAddresses(controllerAddr);
        remoting = setup.apply(new NettyRemotingClient(new NettyClientConfig()));
        remoting.start();
        invoker = new ControllerInvoker(remoting, addresses, timeoutMillis);
    }

    public List<String> addresses() {
        return invoker.addresses();
    }

    /** What one node says of itself and of the leader. */
    public ControllerMetadata metadata(String address) throws ControllerException, InterruptedException {
        RemotingCommand response = invoker.invokeAt(address,
                RemotingCommand.createRequest(RequestCode.CONTROLLER_GET_METADATA_INFO));
        check(response);
        return Json.decode(response.body(), ControllerMetadata.class);
    }

    /** Every broker name the controller knows (or just {@code brokerName}), from the leader. */
    public List<BrokerGroupInfo> brokerGroups(String brokerName) throws ControllerException, InterruptedException {
        RemotingCommand response = invoker.invokeLeader(() -> RemotingCommand.createRequest(
                RequestCode.CONTROLLER_GET_REPLICA_INFO).writeHeader(new ReplicaInfoRequest(brokerName)));
        check(response);
        return Json.decode(response.body(), BrokerGroups.class).groups();
    }

    /**
     * Asks for {@code brokerId} as master of {@code brokerName}. Refused (CONTROLLER_ELECT_MASTER_FAILED) when it is
     * not in the sync-state set, CONTROLLER_BROKER_NOT_ALIVE when it is not alive; CONTROLLER_MASTER_STILL_EXIST
     * when it already is master (not an error: the group is returned).
     */
    public BrokerGroupInfo electMaster(String brokerName, long brokerId)
            throws ControllerException, InterruptedException {
        RemotingCommand response = invoker.invokeLeader(() -> RemotingCommand.createRequest(
                RequestCode.CONTROLLER_ELECT_MASTER).writeHeader(new ElectMasterRequest(brokerName, brokerId, true)));
        if (response.code() != ResponseCode.SUCCESS && response.code() != ResponseCode.CONTROLLER_MASTER_STILL_EXIST) {
            throw new ControllerException(response.code(), response.remark());
        }
        return Json.decode(response.body(), BrokerGroupInfo.class);
    }

    private static void check(RemotingCommand response) throws ControllerException {
        if (response.code() != ResponseCode.SUCCESS) {
            throw new ControllerException(response.code(), response.remark());
        }
    }

    @Override
    public void close() {
        remoting.shutdown();
    }
}
