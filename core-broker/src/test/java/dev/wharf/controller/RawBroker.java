package dev.wharf.controller;

import dev.wharf.common.util.NamedThreadFactory;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.controller.client.ControllerInvoker;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.protocol.body.ControllerData.RegisterResult;
import dev.wharf.protocol.body.ControllerData.SyncStateSet;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.ControllerHeaders.AlterSyncStateSetRequest;
import dev.wharf.protocol.header.ControllerHeaders.ElectMasterRequest;
import dev.wharf.protocol.header.ControllerHeaders.HeartbeatRequest;
import dev.wharf.protocol.header.ControllerHeaders.RegisterRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A broker replica spoken by hand, so a test controls exactly when it heartbeats: {@link #silence()} stops the
 * heartbeats but keeps the connection open (a paused or partitioned broker, not a closed one).
 */
final class RawBroker implements AutoCloseable {

    final String brokerName;
    final String address;
    private final NettyRemotingClient remoting = new NettyRemotingClient(new NettyClientConfig());
    private final ControllerInvoker invoker;
    private final ScheduledExecutorService beats;
    private volatile ScheduledFuture<?> beating;
    volatile long brokerId;
    volatile int epoch;
    volatile long maxOffset;

    RawBroker(String controllerAddr, String brokerName, String address) {
        this.brokerName = brokerName;
        this.address = address;
        remoting.start();
        invoker = new ControllerInvoker(remoting, ControllerInvoker.parseAddresses(controllerAddr), 20_000);
        beats = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("raw-beat-" + address));
    }

    RegisterResult register() throws Exception {
        RemotingCommand r = call(() -> RemotingCommand.createRequest(RequestCode.CONTROLLER_REGISTER_BROKER)
                .writeHeader(new RegisterRequest("C", brokerName, address, brokerId, address + "#check")));
        expect(r, ResponseCode.SUCCESS);
        RegisterResult result = Json.decode(r.body(), RegisterResult.class);
        brokerId = result.brokerId();
        return result;
    }

    RemotingCommand heartbeat() throws Exception {
        return call(() -> RemotingCommand.createRequest(RequestCode.CONTROLLER_BROKER_HEARTBEAT)
                .writeHeader(new HeartbeatRequest("C", brokerName, address, brokerId, epoch, maxOffset, maxOffset,
                        Integer.MAX_VALUE, ControllerNodes.HEARTBEAT_TIMEOUT)));
    }

    /** Heartbeats every 200 ms until {@link #silence()}. */
    RawBroker beat() throws Exception {
        expect(heartbeat(), ResponseCode.SUCCESS);
        beating = beats.scheduleWithFixedDelay(() -> {
            try {
                heartbeat();
            } catch (Exception e) {
                // a leader change: the next beat finds the new one
            }
        }, 200, 200, TimeUnit.MILLISECONDS);
        return this;
    }

    void silence() {
        ScheduledFuture<?> b = beating;
        if (b != null) {
            b.cancel(false);
        }
    }

    RemotingCommand electSelf() throws Exception {
        return call(() -> RemotingCommand.createRequest(RequestCode.CONTROLLER_ELECT_MASTER)
                .writeHeader(new ElectMasterRequest(brokerName, brokerId, false)));
    }

    /** Asks for an election and checks that this broker is master afterwards (elected now or already). */
    BrokerGroupInfo becomeMaster() throws Exception {
        RemotingCommand r = electSelf();
        if (r.code() != ResponseCode.SUCCESS && r.code() != ResponseCode.CONTROLLER_MASTER_STILL_EXIST) {
            expect(r, ResponseCode.SUCCESS);
        }
        BrokerGroupInfo g = group(r);
        if (g.masterBrokerId() != brokerId) {
            throw new AssertionError("broker " + brokerId + " is not master of " + brokerName + ": " + g);
        }
        return g;
    }

    RemotingCommand alter(int masterEpoch, int setEpoch, List<Long> members) throws Exception {
        return call(() -> RemotingCommand.createRequest(RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET)
                .writeHeader(new AlterSyncStateSetRequest(brokerName, brokerId, masterEpoch))
                .setBody(Json.encode(new SyncStateSet(members, setEpoch))));
    }

    static BrokerGroupInfo group(RemotingCommand r) {
        return Json.decode(r.body(), BrokerGroupInfo.class);
    }

    static void expect(RemotingCommand r, int code) {
        if (r.code() != code) {
            throw new AssertionError("expected " + ResponseCode.NAMES.describe(code) + " but got "
                    + ResponseCode.NAMES.describe(r.code()) + ": " + r.remark());
        }
    }

    private RemotingCommand call(java.util.function.Supplier<RemotingCommand> request)
            throws ControllerException, InterruptedException {
        return invoker.invokeLeader(request);
    }

    @Override
    public void close() {
        beats.shutdownNow();
        remoting.shutdown();
    }
}
