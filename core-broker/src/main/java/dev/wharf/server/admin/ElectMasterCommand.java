package dev.wharf.server.admin;

import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin elect-master}. */
@Command(name = "elect-master", mixinStandardHelpOptions = true,
        description = "Makes a replica the master of its broker name. Refused unless the replica is alive and in the "
                + "sync-state set (a replica outside it may lack acknowledged messages).")
final class ElectMasterCommand implements Callable<Integer> {

    @ParentCommand
    AdminCommand admin;

    @Mixin
    ControllerOption option;

    @Option(names = "--broker-name", required = true, paramLabel = "NAME", description = "The broker name.")
    String brokerName;

    @Option(names = "--broker-id", required = true, paramLabel = "ID",
            description = "The controller's id of the replica to make master (see admin broker-groups).")
    long brokerId;

    @Override
    public Integer call() throws Exception {
        BrokerGroupInfo g;
        try (ControllerAdmin c = option.open(admin)) {
            g = c.electMaster(brokerName, brokerId);
        } catch (ControllerException e) {
            throw option.failure(e);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("brokerName", g.brokerName());
        fields.put("masterBrokerId", g.masterBrokerId());
        fields.put("masterAddress", g.masterAddress());
        fields.put("masterEpoch", g.masterEpoch());
        fields.put("syncStateSet", g.syncStateSet());
        admin.output().result("Broker " + g.masterBrokerId() + " (" + g.masterAddress() + ") is master of "
                + g.brokerName() + " at epoch " + g.masterEpoch() + "; sync-state set " + g.syncStateSet(), fields);
        return 0;
    }
}
